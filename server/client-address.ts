import { isIP } from "node:net";
import type { IncomingMessage } from "node:http";
import { log } from "~/log.server";

/**
 * Which address a request comes from. With TRUST_PROXY, Express's req.ip is the trusted hop's X-Forwarded-For entry,
 * taken as it is: any text a client sends (an attack on the owner area: `<!channel> [click me](http://evil.example)` reached the
 * login alert, the chat webhook, the activity log and the throttle's key). Only a valid IP address is believed;
 * anything else is the connection's own address, said once per process in the log (never the value: it is a
 * client's text).
 */

let warned = false;

export function requestAddress(req: IncomingMessage & { ip?: string }): string | undefined {
  const peer = req.socket.remoteAddress;
  const claimed = req.ip;
  if (claimed === undefined || claimed === peer || isIP(claimed) !== 0) return claimed ?? peer;
  if (!warned) {
    warned = true;
    log.warn(
      "[proxy] X-Forwarded-For held something that is not an IP address: the connection's address is used instead " +
        "(said once; check what the proxy in front of the site sends, TRUST_PROXY hops)",
    );
  }
  return peer;
}
