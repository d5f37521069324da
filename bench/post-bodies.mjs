// `npm run bench:bodies [-- --app DIR]`: what large posts cost the server (issue 22). Starts the built site as
// `npm start` runs it (its heap flags), embedded with a fresh SQLite inbox, and posts 100 MB bodies to
// /inbox/login: one, then (on a fresh server) three at once, chunked (no Content-Length) and with a Content-Length.
// Prints the server's RSS before, its peak (VmHWM) and its RSS 5 s after. --app measures another tree's build (an
// A/B against the commit before the fix: `git archive REF | tar -x -C DIR`, link node_modules, `npm run build` there).
import { request } from "node:http";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { memory, sleep, stopChild } from "./lib/proc.mjs";
import { resultsDir, startSite } from "./lib/servers.mjs";

mkdirSync(resultsDir, { recursive: true });

const appArg = process.argv.indexOf("--app");
const cwd = appArg > 0 ? resolve(process.argv[appArg + 1]) : process.cwd();
const size = 100 * 1024 * 1024;
const MiB = (bytes) => (bytes / 1024 / 1024).toFixed(0);

/** Posts `size` bytes of form data in 64 KiB writes; resolves with the status (or the error that ended it). */
function post(origin, { chunked }) {
  return new Promise((done) => {
    const chunk = Buffer.alloc(64 * 1024, "a");
    const req = request(`${origin}/inbox/login`, {
      method: "POST",
      // As a browser at PUBLIC_URL's default address (http://localhost:PORT) sends it: a tree before issue 22 compared
      // Origin with PUBLIC_URL.
      headers: {
        Host: `localhost:${new URL(origin).port}`,
        Origin: `http://localhost:${new URL(origin).port}`,
        "Content-Type": "application/x-www-form-urlencoded",
        ...(chunked ? {} : { "Content-Length": String(size) }),
      },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => done(String(res.statusCode)));
    });
    req.on("error", (error) => done(error.code ?? error.message));
    let sent = 0;
    const write = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", write);
      }
      req.end();
    };
    write();
  });
}

async function measure(label, count, chunked) {
  const dir = mkdtempSync(join(tmpdir(), "haunt-bodies-"));
  const site = await startSite({
    cwd,
    label: `bodies-${label.replace(/\W+/g, "-")}`,
    apiHost: "",
    env: { DATABASE_URL: `file:${join(dir, "inbox.db")}`, INBOX_FILE: join(dir, "none.jsonl") },
  });
  try {
    // The login page once, so that the figures do not include the first page's rendering.
    await (await fetch(`${site.origin}/inbox/login`)).arrayBuffer();
    await sleep(1000);
    const before = memory(site.pid).rss;
    const statuses = await Promise.all(Array.from({ length: count }, () => post(site.origin, { chunked })));
    const peak = memory(site.pid).hwm;
    await sleep(5000);
    const after = memory(site.pid).rss;
    console.log(
      `${label.padEnd(34)} answers ${statuses.join(",").padEnd(12)} RSS ${MiB(before)} -> peak ${MiB(peak)} MiB, ` +
        `${MiB(after)} MiB 5 s later`,
    );
  } finally {
    await stopChild(site.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`${cwd}: 100 MB posts to /inbox/login`);
await measure("one, chunked", 1, true);
await measure("one, Content-Length", 1, false);
await measure("three at once, chunked", 3, true);
await measure("three at once, Content-Length", 3, false);
