/// <reference types="@remix-run/dev" />

import "@remix-run/node";

// Single Fetch types for loaders/actions (future.v3_singleFetch is on in remix.config.js).
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
