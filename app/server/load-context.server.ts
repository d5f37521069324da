import type { IncomingMessage } from "node:http";
import type { AppLoadContext } from "@remix-run/node";
import { getConfig } from "~/config.server";

/**
 * Remix's load context, built per request by server.mjs. The client address is Express's req.ip, which honours
 * `trust proxy` (TRUST_PROXY hops of X-Forwarded-For); with no trusted proxy it is left out, because behind an
 * untrusted proxy every visitor would share the proxy's address.
 */
export function loadContext(req: IncomingMessage & { ip?: string }): AppLoadContext {
  return { clientAddress: getConfig().trustProxy > 0 ? req.ip : undefined };
}
