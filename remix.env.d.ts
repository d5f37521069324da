/// <reference types="@remix-run/dev" />

import "@remix-run/node";

// Single Fetch types for loaders/actions (future.v3_singleFetch is on in remix.config.js).
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

// What server.mjs passes to loaders and actions (getLoadContext, see app/server/load-context.server.ts).
declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    /** The visitor's address, known only when TRUST_PROXY says which proxy to believe. */
    clientAddress?: string;
  }
}
