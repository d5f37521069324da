// The site's HTTP server: Remix's Express adapter with the same static file and compression set-up as remix-serve,
// plus what a production container needs and remix-serve cannot give (see README, "Serving"). The logic lives in the
// app (typed and tested) and reaches this file through the build: build.entry.module.
import { createServer } from "node:http";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";
import morgan from "morgan";
import * as build from "./build/index.js";

process.env.NODE_ENV ??= "production";
const dev = process.env.NODE_ENV === "development";
installGlobals({ nativeFetch: build.future.v3_singleFetch });

const {
  startServices,
  stopBackground,
  stopServices,
  getConfig,
  guardRequest,
  loadContext,
  gracefulShutdown,
  serverTimeouts,
} = build.entry.module;
// A signal while the services start (the database may keep that waiting a few seconds): nothing is in flight yet.
let shutdown;
const onSignal = (signal) => {
  // Whatever happens below, the process is gone within 10 s of the first signal (docker stop's grace): a stuck disk
  // can keep a database thread, and so process.exit, from returning.
  setTimeout(() => process.kill(process.pid, "SIGKILL"), 9_800).unref();
  if (!shutdown) process.exit(0);
  void shutdown.shutdown(signal).then((code) => process.exit(code));
};
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, onSignal);

await startServices();
const config = getConfig();

const app = express();
app.disable("x-powered-by");
// How many proxy hops' X-Forwarded-For/-Proto to believe (0: none). X-Forwarded-Host is dropped by guardRequest.
app.set("trust proxy", config.trustProxy);
app.use(compression());
// Express 4's type table predates AVIF (the photos under /build/photos/, see docs/photos.md).
express.static.mime.define({ "image/avif": ["avif"] });
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
app.use(morgan("tiny"));
// Before anything that reads the request's host, method or path (Remix, a page cache): refusals are 4xx, not 500s.
app.use(guardRequest);
// Repeated page requests are answered from memory, without Remix, React or compression (app/http/page-cache.server.ts).
app.use(build.entry.module.pageCache);
app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV, getLoadContext: loadContext }));

const host = process.env.HOST || undefined;
const server = createServer(serverTimeouts, app);
shutdown = gracefulShutdown(server, { stopBackground, stopServices });
server.listen(config.port, host, () => {
  console.log(`[server] http://${host ?? "localhost"}:${config.port}`);
  if (dev) void broadcastDevReady(build);
});
