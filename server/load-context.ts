import type { IncomingMessage } from "node:http";
import type { AppLoadContext } from "@remix-run/node";
import type { PageCache } from "~/pages/page-cache.server";
import type { SiteServices } from "~/site-services.server";
import { requestAddress } from "./client-address";
import { currentSite } from "./site-content-poll";

/**
 * Remix's load context, built per request: the process's services, its page cache, the site's published content (read
 * once, so the loaders and the page cache agree) and the client address. That is Express's req.ip,
 * which honours `trust proxy` (TRUST_PROXY hops of X-Forwarded-For), when it is an IP address (./client-address.ts);
 * with no trusted proxy it is left out, because behind an untrusted proxy every visitor would share the proxy's address.
 */
export function loadContext(services: SiteServices, pageCache?: PageCache) {
  return (req: IncomingMessage & { ip?: string }): AppLoadContext => {
    const address = requestAddress(req);
    return {
      services,
      pageCache,
      // Read once per request: the loaders and the page cache agree on which version a page shows.
      site: currentSite(),
      clientAddress: services.config.trustProxy > 0 ? address : undefined,
      // The login throttle's key (with the account): the connection's peer, or the trusted proxy's client.
      peerAddress: address,
    };
  };
}
