#!/usr/bin/env node
// Two figures for issue 17, on the built server (`npm run build` first), ports from BENCH_PORT (default 3690):
// 1. A restart with a 50 MB v1 inbox file already imported: time from spawn to listening (the import is remembered).
// 2. What /contact costs now that it is rendered per visitor (its form token) instead of served from the page cache:
//    autocannon on /contact and, for comparison, /about (still cached), 10 connections, 5 s each.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { compileCacheEnv } from "../tests/support/compile-cache.mjs";

const port = Number(process.env.BENCH_PORT ?? 3690);
const root = new URL("..", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "haunt-bench-spam-"));
const inboxFile = join(dir, "enquiries.jsonl");
const env = {
  ...process.env,
  NODE_ENV: "production",
  HOST: "127.0.0.1",
  PORT: String(port),
  DATABASE_URL: `file:${join(dir, "enquiries.db")}`,
  INBOX_FILE: inboxFile,
  TMPDIR: dir, // its temp files in the folder removed at the end
  ...compileCacheEnv,
  RETENTION_DAYS: "36500", // keep every generated line: the figure is about reading the file, not the purge
};

function start() {
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, "build/server/index.js")], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listening = new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      if (output.includes("[server] http://")) resolve(performance.now() - started);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
  return {
    listening,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        child.removeAllListeners("exit");
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }),
  };
}

const load = (path) =>
  new Promise((resolve, reject) =>
    autocannon({ url: `http://127.0.0.1:${port}${path}`, connections: 10, duration: 5 }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );

try {
  const line = (n) =>
    JSON.stringify({
      receivedAt: new Date(Date.UTC(2025, 9, 1) + n * 1000).toISOString(),
      name: `Visitor ${n}`,
      email: `visitor${n}@example.com`,
      message: `I would like a custom prop for our haunt, enquiry number ${n}. `.repeat(4),
    });
  const lines = [];
  let bytes = 0;
  for (let n = 0; bytes < 50 * 1024 * 1024; n++) {
    const text = line(n);
    lines.push(text);
    bytes += text.length + 1;
  }
  writeFileSync(inboxFile, `${lines.join("\n")}\n`);
  console.log(`v1 file: ${(bytes / 1024 / 1024).toFixed(1)} MB, ${lines.length} lines`);

  const first = start();
  const firstMs = await first.listening;
  await new Promise((resolve) => setTimeout(resolve, 500));
  // The import runs before the server listens (up to 5 s); wait until it has finished and been remembered.
  while (!first.output().includes("will not be read again")) await new Promise((r) => setTimeout(r, 200));
  await first.stop();
  console.log(`first start (imports the file): listening after ${Math.round(firstMs)} ms`);
  for (let run = 1; run <= 3; run++) {
    // The same start with no v1 file at all: the floor on this machine at this moment.
    const bare = start({ INBOX_FILE: join(dir, "none.jsonl") });
    console.log(`start ${run} without a v1 file: listening after ${Math.round(await bare.listening)} ms`);
    await bare.stop();
    const again = start();
    const ms = await again.listening;
    console.log(`restart ${run} (file already imported): listening after ${Math.round(ms)} ms`);
    if (run === 3) {
      for (const path of ["/about", "/contact"]) {
        await load(path); // warm-up
        const result = await load(path);
        console.log(
          `${path}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
        );
      }
    }
    await again.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
