/// <reference types="@remix-run/dev" />

import "@remix-run/node";

// Single Fetch types for loaders/actions (future.v3_singleFetch is on in remix.config.js).
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

// What the server wing passes to loaders and actions (getLoadContext, see server/load-context.ts).
declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    /** The process's services (database, notifications, limits): see app/services.server.ts. */
    services: import("./app/services.server").SiteServices;
    /** Finished pages kept in memory, for entry.server.tsx to keep what it renders; absent where nothing is cached. */
    pageCache?: import("./app/pages/page-cache.server").PageCache;
    /** The site's published content as this request found it (server/site-content.ts keeps it current). */
    site: import("./app/site-content/snapshot.server").SiteSnapshot;
    /** The visitor's address, known only when TRUST_PROXY says which proxy to believe. */
    clientAddress?: string;
    /** The peer's address (req.ip: the trusted proxy's client, or the connection's peer): the login throttle's key. */
    peerAddress?: string;
    /**
     * The new session id this request's action moved the session to (a change of stage, app/owner/session.server.ts
     * renewedSession): the page's loaders, which run after the action in the same request, use it, not the cookie's.
     */
    renewedSessionId?: string;
  }
}
