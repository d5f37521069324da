#!/usr/bin/env node
// npm run bench:login (issue 22): the owner's login attacked from outside, on the built server (`npm run build` first),
// started as `npm start` runs it (same heap flags), SQLite, TRUST_PROXY=1 so each login can claim its own address.
//   1. Login storm: GET / and a static file under autocannon for --duration s, alone and then with waves of --logins
//      logins at once from distinct addresses (wrong passwords for a real operator) for the whole phase. Reports the
//      server's peak RSS (VmHWM), GET / and static p50/p99 with and without the storm, and how the logins were answered
//      (401: hashed and checked; 503: refused by the hashing queue; 429: refused by the site-wide login rate).
//      Run with the site-wide login rate as shipped and with it off (RATE_LIMIT_LOGIN_PER_MINUTE=0: the queue alone).
//      The peak is read after the first wave (the "200 logins at once") and at the end (a sustained flood).
//   2. Login bodies: a 100 MB body posted to /inbox/login with Content-Length and chunked, one and three at once, each
//      on a fresh server: the answer, the peak RSS sampled every 50 ms, and the RSS 5 s after.
// --compare <git-ref> runs the same on that ref built in a temporary directory (e.g. main: the figures before).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { killAllChildren, memory, sleep, stopChild } from "./lib/proc.mjs";
import { addOperator, browserHeaders, resultsDir, root, startSite } from "./lib/servers.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const durationS = Number(option("--duration", 10));
const loginsAtOnce = Number(option("--logins", 200));
const compare = option("--compare", undefined);
const only = option("--only", "all"); // storm | bodies | all
const operator = { email: "owner@example.com", password: "velvet quartz owl 7394 harbour" };
const MiB = 1024 * 1024;
const mib = (bytes) => `${(bytes / MiB).toFixed(0)} MiB`;

mkdirSync(resultsDir, { recursive: true });
const cleanups = [];
process.on("SIGINT", () => {
  killAllChildren();
  process.exit(130);
});

async function site(cwd, label, env = {}) {
  const dir = mkdtempSync(join(tmpdir(), "haunt-bench-login-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const databaseUrl = `file:${join(dir, "inbox.db")}`;
  const siteEnv = {
    DATABASE_URL: databaseUrl,
    INBOX_FILE: join(dir, "enquiries.jsonl"),
    TRUST_PROXY: "1",
    INBOX_REQUIRE_2FA: "off",
    ...env,
  };
  addOperator({ cwd, env: siteEnv, email: operator.email, password: operator.password });
  const started = await startSite({ cwd, label, apiHost: "", env: siteEnv });
  return { ...started, stop: () => stopChild(started.child) };
}

/** The browser's view of the site: PUBLIC_URL's default (http://localhost:PORT), connected to 127.0.0.1:PORT. */
const asBrowser = (origin) => {
  const own = origin.replace("127.0.0.1", "localhost");
  return { Host: new URL(own).host, Origin: own };
};

/** One login post from `address`, as the login page sends it; resolves with the status or the error's code. */
function logIn(origin, address, password) {
  const body = new URLSearchParams({ email: operator.email, password, next: "/inbox" }).toString();
  return new Promise((resolve) => {
    const req = request(
      `${origin}/inbox/login`,
      {
        method: "POST",
        agent: false,
        headers: {
          ...asBrowser(origin),
          "Content-Type": "application/x-www-form-urlencoded",
          "X-Forwarded-For": address,
        },
        timeout: 60_000,
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(String(res.statusCode)));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (error) => resolve(error.code ?? error.message));
    req.end(body);
  });
}

const cannon = (url, seconds) =>
  new Promise((resolve, reject) => {
    autocannon({ url, connections: 10, duration: seconds, headers: browserHeaders, timeout: 10 }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });

const latency = (result) =>
  `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms (${result.requests.total} requests, ${result.non2xx} not 2xx, ${result.errors} errors)`;

async function storm(cwd, label, env) {
  const server = await site(cwd, `login-${label}`, env);
  try {
    const stylesheet = readdirSync(join(cwd, "public/build/_assets")).find((name) => name.endsWith(".css"));
    const staticUrl = `${server.origin}/build/_assets/${stylesheet}`;
    const [quietPage, quietStatic] = await Promise.all([
      cannon(`${server.origin}/`, durationS),
      cannon(staticUrl, durationS),
    ]);
    const quietMemory = memory(server.pid);

    const answers = {};
    let waves = 0;
    let firstWave = 0;
    let running = true;
    const storming = (async () => {
      while (running) {
        waves += 1;
        const wave = await Promise.all(
          Array.from({ length: loginsAtOnce }, (_, n) =>
            logIn(server.origin, `10.${waves % 250}.${Math.floor(n / 250)}.${(n % 250) + 1}`, `wrong ${n}`),
          ),
        );
        for (const status of wave) answers[status] = (answers[status] ?? 0) + 1;
        if (waves === 1) firstWave = memory(server.pid).hwm;
      }
    })();
    const [stormPage, stormStatic] = await Promise.all([
      cannon(`${server.origin}/`, durationS),
      cannon(staticUrl, durationS),
    ]);
    running = false;
    await storming;
    const after = memory(server.pid);
    await sleep(5000);
    return {
      label,
      env,
      quiet: { page: latency(quietPage), static: latency(quietStatic), hwm: mib(quietMemory.hwm) },
      storm: {
        page: latency(stormPage),
        static: latency(stormStatic),
        waves,
        answers,
        hwmAfterFirstWave: mib(firstWave),
        hwm: mib(after.hwm),
        rssAfter: mib(after.rss),
        rss5sLater: mib(memory(server.pid).rss),
      },
    };
  } finally {
    await server.stop();
  }
}

/** Posts `bytes` of form body to /inbox/login, with Content-Length or chunked; resolves with the status or error. */
function bigLogin(origin, bytes, chunked) {
  const chunk = Buffer.alloc(MiB, "a");
  return new Promise((resolve) => {
    const req = request(`${origin}/inbox/login`, {
      method: "POST",
      agent: false,
      headers: {
        ...asBrowser(origin),
        "Content-Type": "application/x-www-form-urlencoded",
        ...(chunked ? {} : { "Content-Length": String(bytes) }),
      },
    });
    let settled = false;
    const done = (what) => {
      if (!settled) resolve(what);
      settled = true;
    };
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => done(String(res.statusCode)));
    });
    req.on("error", (error) => done(error.code ?? error.message));
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!req.write(sent === chunk.length ? Buffer.concat([Buffer.from("password="), chunk.subarray(9)]) : chunk))
          return void req.once("drain", write);
      }
      req.end();
    };
    write();
  });
}

async function bodies(cwd, label) {
  const rows = [];
  for (const chunked of [false, true]) {
    for (const atOnce of [1, 3]) {
      const server = await site(cwd, `login-body-${label}`);
      try {
        const before = memory(server.pid).rss;
        let peak = before;
        const sampler = setInterval(() => {
          try {
            peak = Math.max(peak, memory(server.pid).rss);
          } catch {
            // the server is gone
          }
        }, 50);
        const started = performance.now();
        const answers = await Promise.all(
          Array.from({ length: atOnce }, () => bigLogin(server.origin, 100 * MiB, chunked)),
        );
        const seconds = (performance.now() - started) / 1000;
        await sleep(5000);
        clearInterval(sampler);
        rows.push({
          body: chunked ? "chunked" : "Content-Length",
          atOnce,
          answers: answers.join(", "),
          seconds: Number(seconds.toFixed(1)),
          rssBefore: mib(before),
          peakRss: mib(peak),
          rss5sLater: mib(memory(server.pid).rss),
        });
      } finally {
        await server.stop();
      }
    }
  }
  return { label, rows };
}

/** <ref> out of git (git archive: the repository is only read) into a temporary directory, built as `npm run build`. */
function prepareRef(ref) {
  const sha = execFileSync("git", ["rev-parse", "--verify", `${ref}^{commit}`], { cwd: root, encoding: "utf8" }).trim();
  const dir = mkdtempSync(join(tmpdir(), "haunt-bench-login-ref-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const tar = execFileSync("git", ["archive", "--format=tar", sha], { cwd: root, maxBuffer: 256 * MiB });
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  const built = spawnSync("npm", ["run", "build"], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (built.status !== 0) throw new Error(`npm run build of ${ref} failed:\n${built.stdout}\n${built.stderr}`);
  return { dir, sha };
}

async function measure(cwd, label) {
  const result = { label };
  if (only !== "bodies") {
    result.storm = [
      await storm(cwd, `${label}-as-shipped`, {}),
      await storm(cwd, `${label}-rate-off`, { RATE_LIMIT_LOGIN_PER_MINUTE: "0" }),
    ];
  }
  if (only !== "storm") result.bodies = await bodies(cwd, label);
  return result;
}

try {
  const results = [await measure(root, "this tree")];
  if (compare) {
    const { dir, sha } = prepareRef(compare);
    results.push(await measure(dir, `${compare} (${sha.slice(0, 7)})`));
  }
  const file = join(resultsDir, "owner-login.json");
  writeFileSync(file, JSON.stringify(results, null, 2));
  console.log(JSON.stringify(results, null, 2));
  console.log(`\nwritten to ${file}`);
} finally {
  killAllChildren();
  for (const cleanup of cleanups.reverse()) cleanup();
}
