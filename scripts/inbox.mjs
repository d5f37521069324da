#!/usr/bin/env node
// `npm run inbox`: the operator's command for the embedded inbox (see `npm run inbox -- --help`). It runs the code in
// the server build (app/inbox/cli.server.ts), so it reads the same DATABASE_URL the same way as the server: build first.
import { existsSync } from "node:fs";

const build = new URL("../build/index.js", import.meta.url);
if (!existsSync(build)) {
  process.stderr.write("inbox: build/index.js is missing: run `npm run build` first.\n");
  process.exit(1);
}
process.env.NODE_ENV ??= "production";
// Quietly stop when the reader goes away (e.g. `npm run inbox | head`).
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});
const { entry } = await import(build.href);
process.exitCode = await entry.module.runInboxCommand(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
});
