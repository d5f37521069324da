import { existsSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, installGlobals, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { log } from "~/log.server";
import { PageCache } from "~/pages/page-cache.server";
import { sweepScratch } from "~/scratch.server";
import { getConfig } from "./environment";
import { listenOrExit } from "./listen";
import { loadContext } from "./load-context";
import { metricsServer, requestMetrics } from "./metrics";
import { pageCacheMiddleware } from "./page-cache";
import { photoFiles } from "./photo-files";
import { mediaFiles } from "./media-files";
import { guardActions } from "./actions";
import { guardRequest } from "./request-guard";
import { accessLog, requestIds } from "./request-log";
import { createServices, startServices, stopBackground, stopServices } from "./service-lifecycle";
import { currentSite } from "./site-content-poll";
import { gracefulShutdown, serverTimeouts, type GracefulShutdown } from "./shutdown";

/**
 * The site's HTTP server: Express with Remix's adapter, the static file and compression set-up of remix-serve, and
 * what a production container needs that remix-serve cannot give (docs/decisions/0001-own-server.md): the request
 * guard, the page cache, services started before listening and a graceful shutdown.
 */

process.env.NODE_ENV ??= "production";
const dev = process.env.NODE_ENV === "development";

// A signal while the services start (the database may keep that waiting a few seconds): nothing is in flight yet.
// eslint-disable-next-line prefer-const -- set once the server exists; a signal before that exits at once
let shutdown: GracefulShutdown | undefined;
const onSignal = (signal: NodeJS.Signals) => {
  // Whatever happens below, the process is gone within 10 s of the first signal (docker stop's grace): a stuck disk
  // can keep a database thread, and so process.exit, from returning.
  setTimeout(() => process.kill(process.pid, "SIGKILL"), 9_800).unref();
  if (!shutdown) process.exit(0);
  void shutdown.shutdown(signal).then((code) => process.exit(code));
};
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, onSignal);

// Checks the environment first: a bad value stops the start with a message naming the variable.
const config = getConfig();
// The Remix build beside this bundle (build/index.js): the pages and routes, every action behind the cross-site
// check and its body cap.
const build = guardActions((await import(new URL("../index.js", import.meta.url).href)) as ServerBuild);
installGlobals({ nativeFetch: build.future.v3_singleFetch });
// The installation's files are found from this bundle (build/server/), never from the working directory: started from
// anywhere, the pages get their styles, scripts and images. (The data paths stay relative to it: docs/configuration.md.)
const installation = new URL("../../", import.meta.url);
const fromInstallation = (path: string) => fileURLToPath(new URL(path, installation));
const assets = fromInstallation(build.assetsBuildDirectory);
if (!existsSync(assets)) {
  log.error(
    `[server] the browser build is missing (${assets}): run \`npm run build\` in ${fileURLToPath(installation)}`,
  );
  process.exit(1);
}

// Uploads and clips a killed process was receiving or encoding (app/scratch.server.ts): gone before any new work.
const swept = sweepScratch();
if (swept > 0) log.info(`[server] removed ${swept} temporary folder(s) left by processes that stopped mid-work`);

const services = createServices();
// A page shows one generation of the site's content: a publish or a photo encoded since (here or on another instance)
// retires the kept ones.
const pageCache = new PageCache(undefined, undefined, () => currentSite().generation);
await startServices();

/** Express 4's type table predates AVIF. */
function photoType(response: ServerResponse, path: string) {
  if (path.endsWith(".avif")) response.setHeader("Content-Type", "image/avif");
}

const app = express();
app.disable("x-powered-by");
// First, so that every answer is counted, static files and refusals too.
if (config.metrics) app.use(requestMetrics(build));
// How many proxy hops' X-Forwarded-For/-Proto to believe (0: none). X-Forwarded-Host is dropped by guardRequest.
app.set("trust proxy", config.trustProxy);
// First: every answer names its request id, and every line a request causes carries it.
app.use(requestIds(config.trustProxy));
// From 256 bytes rather than the middleware's 1 KiB: the browser build splits into many small modules, which gzip to
// about 60 % of their size; below 256 bytes the header outweighs the gain.
app.use(compression({ threshold: 256 }));
app.use(build.publicPath, express.static(assets, { immutable: true, maxAge: "1y" }));
// The photos (docs/photos.md): content-hashed names, so kept a year like /build/. The build's (scripts/photos.mjs) from
// public/photos, then the owner's uploads, encoded into the database.
app.use(
  "/photos",
  express.static(fromInstallation("public/photos"), { immutable: true, maxAge: "1y", setHeaders: photoType }),
);
app.use("/photos", photoFiles(config.apiHost ? undefined : services.inbox));
// The Work pages' clips (docs/work.md): from each instance's file cache, with byte ranges.
app.use("/media", mediaFiles(config.apiHost ? undefined : services.inbox, config.mediaCacheDir!));
app.use(express.static(fromInstallation("public"), { maxAge: "1h" }));
// The access log names the path, never the query string (server/request-log.ts).
app.use(accessLog());
// Before anything that reads the request's host, method or path (Remix, the page cache): refusals are 4xx, not 500s.
app.use(guardRequest);
// Repeated page requests are answered from memory, without Remix, React or compression (app/pages/page-cache.server.ts).
app.use(pageCacheMiddleware(pageCache));
app.all(
  "*",
  createRequestHandler({ build, mode: process.env.NODE_ENV, getLoadContext: loadContext(services, pageCache) }),
);

const { host } = config;
const server = createServer(serverTimeouts, app);
// Prometheus' scrapes on their own listener, never the site's port; closed at the shutdown signal with the rest.
const metrics = config.metrics ? metricsServer({ database: !config.apiHost }) : undefined;
const stopMetrics = async () => {
  if (!metrics?.listening) return;
  const closed = new Promise((resolve) => metrics.close(resolve));
  metrics.closeAllConnections();
  await closed;
};
shutdown = gracefulShutdown(server, {
  stopBackground: () => Promise.all([stopBackground(), stopMetrics()]).then(() => {}),
  stopServices,
});
if (metrics && config.metrics) {
  const { port, host } = config.metrics;
  await listenOrExit(metrics, { area: "metrics", port, host, variables: ["METRICS_PORT", "METRICS_HOST"] });
  log.info(`[metrics] http://${host.includes(":") ? `[${host}]` : host}:${port}/metrics`);
}
await listenOrExit(server, { area: "server", port: config.port, host, variables: ["PORT", "HOST"] });
log.info(`[server] http://${host ?? "localhost"}:${config.port}`);
if (dev) void broadcastDevReady(build);
