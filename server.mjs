// The site's HTTP server: Remix's Express adapter with the same static file and compression set-up as remix-serve,
// plus what a production container needs and remix-serve cannot give (see README, "Serving").
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";
import morgan from "morgan";
import * as build from "./build/index.js";

process.env.NODE_ENV ??= "production";
const dev = process.env.NODE_ENV === "development";
installGlobals({ nativeFetch: build.future.v3_singleFetch });

const { startServices, stopServices } = build.entry.module;
await startServices();

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
app.use(morgan("tiny"));
app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV }));

const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || undefined;
const server = app.listen(port, host, () => {
  console.log(`[server] http://${host ?? "localhost"}:${port}`);
  if (dev) void broadcastDevReady(build);
});

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => server.close(() => void stopServices()));
}
