// The processes the benchmark measures: the built site as `npm start` runs it, the fake upstream API, the node:http
// baseline, and a second build of another git ref for A/B comparisons. Each runs in its own process.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { decode, getRaw } from "./bytes.mjs";
import { freePort, host, spawnLogged, waitForUrl } from "./proc.mjs";
import { compileCacheEnv } from "../../tests/support/compile-cache.mjs";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const resultsDir = join(root, "bench", "results");
/** What Chromium sends; remix-serve's compression answers it with br. */
export const loadAcceptEncoding = "gzip, deflate, br, zstd";
/** What the load phases send: a browser's Accept-Encoding and User-Agent. */
export const browserHeaders = {
  "Accept-Encoding": loadAcceptEncoding,
  "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36",
};

/**
 * autocannon options for contact-form posts as a browser sends them: `fieldsFor(n)` gives the n-th post's name, email
 * and message (the right captcha answer is added), so every post can be its own enquiry.
 */
export function contactPosts(fieldsFor) {
  let sequence = 0;
  return {
    requests: [
      {
        method: "POST",
        path: "/contact",
        headers: { ...browserHeaders, "Content-Type": "application/x-www-form-urlencoded" },
        setupRequest(request) {
          sequence += 1;
          request.body = new URLSearchParams({ ...fieldsFor(sequence), security: "Freddy" }).toString();
          return request;
        },
      },
    ],
  };
}

/** Runs a command to completion with its output in a log file; rejects on a non-zero exit or after timeoutMs. */
function runToEnd(command, args, { cwd, env = process.env, logFile, timeoutMs }) {
  return new Promise((resolvePromise, reject) => {
    const fd = openSync(logFile, "w");
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", fd, fd] });
    closeSync(fd);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise();
      else reject(new Error(`${command} ${args.join(" ")} failed (${signal ?? `exit ${code}`}); see ${logFile}`));
    });
  });
}

/** The tree's own `npm run build` (photos, the Remix build and the server's bundle), as CI and the Dockerfile build it. */
export async function build(cwd, logFile) {
  await runToEnd("npm", ["run", "build"], {
    cwd,
    env: { ...process.env, NODE_ENV: "production" },
    logFile,
    timeoutMs: 180_000,
  });
}

/** The Node flags of that tree's `npm start` (`node FLAGS <entry>`): the heap settings the container runs with. */
export function startFlags(cwd = root) {
  return startCommand(cwd).flags;
}

/** `npm start`'s node flags and the environment it sets before them (glibc's malloc settings: docs/photos.md). */
export function startCommand(cwd = root) {
  const start = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8")).scripts?.start ?? "";
  const match = /^((?:[A-Z_]+=\S+\s+)*)node\s+(.*?)\s*(?:server\.mjs|build\/server\/index\.js)$/.exec(start);
  const env = Object.fromEntries(
    (match?.[1] ?? "")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => pair.split("=")),
  );
  return { flags: match && match[2] ? match[2].split(/\s+/) : [], env };
}

/** The built site exactly as `npm start` runs it (node FLAGS build/server/index.js), in its own process; `env` adds to its environment. */
export async function startSite({
  cwd = root,
  label,
  apiHost,
  cpuProfDir,
  env = {},
  nodeFlags = startFlags(cwd),
  startEnv = startCommand(cwd).env,
}) {
  const port = await freePort();
  const nodeArgs = [
    ...nodeFlags,
    ...(cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`, `--cpu-prof-name=site-${label}.cpuprofile`] : []),
  ];
  // That tree's own entry beside its own build, so the A/B's other side runs its own code.
  // (Before the process wing, a tree started with server.mjs at its top.)
  const entry = existsSync(join(cwd, "server.mjs")) ? "server.mjs" : "build/server/index.js";
  // A TMPDIR of its own (uploads being received, clips being encoded, the media cache), removed once it has exited.
  const ownTmp = env.TMPDIR ? undefined : mkdtempSync(join(tmpdir(), "haunt-bench-tmp-"));
  const removeTmp = () => ownTmp && rmSync(ownTmp, { recursive: true, force: true });
  process.once("exit", removeTmp);
  const child = spawnLogged(process.execPath, [...nodeArgs, join(cwd, entry)], {
    cwd,
    // The rate limits off: the load test sends far more enquiries than they allow.
    env: {
      ...process.env,
      ...startEnv,
      NODE_ENV: "production",
      HOST: host,
      PORT: String(port),
      API_HOST: apiHost,
      API_TIMEOUT_MS: "10000",
      RATE_LIMIT_SITE_PER_MINUTE: "0",
      RATE_LIMIT_CLIENT_PER_HOUR: "0",
      // The bench posts without loading the form (no form token): it measures the inbox, not the spam filter.
      SPAM_FILTER: "off",
      ...(ownTmp && { TMPDIR: ownTmp, ...compileCacheEnv }),
      ...env,
    },
    logFile: join(resultsDir, `server-${label}.log`),
  });
  child.once("exit", removeTmp);
  const origin = `http://${host}:${port}`;
  await waitForUrl(`${origin}/healthz`, { child, timeoutMs: 30_000 });
  return { child, pid: child.pid, origin };
}

export async function startUpstream() {
  const port = await freePort();
  const child = spawnLogged(
    process.execPath,
    [join(root, "tests", "support", "fake-upstream.mjs"), "--port", String(port)],
    {
      cwd: root,
      env: process.env,
      logFile: join(resultsDir, "upstream.log"),
    },
  );
  const origin = `http://${host}:${port}`;
  await waitForUrl(`${origin}/__control/count`, { child });
  return { child, pid: child.pid, origin };
}

/**
 * Captures the site's `/` once per Content-Encoding and starts the node:http baseline that replays those bytes.
 * The Accept-Encoding of the load phases maps to the same Content-Encoding on both servers.
 */
export async function startBaseline(siteOrigin) {
  const variants = [];
  for (const acceptEncoding of [loadAcceptEncoding, "gzip", "identity"]) {
    const { status, headers, body } = await getRaw(`${siteOrigin}/`, { "Accept-Encoding": acceptEncoding });
    if (status !== 200) throw new Error(`GET / answered ${status}`);
    const keep = Object.fromEntries(
      Object.entries(headers).filter(
        ([name]) => !["date", "connection", "keep-alive", "transfer-encoding", "content-length"].includes(name),
      ),
    );
    variants.push({
      acceptEncoding,
      contentEncoding: String(headers["content-encoding"] ?? ""),
      headers: keep,
      body: body.toString("base64"),
      wireBytes: body.length,
      bytes: decode(body, String(headers["content-encoding"] ?? "")).length,
    });
  }
  const file = join(resultsDir, "baseline-variants.json");
  writeFileSync(file, JSON.stringify(variants));
  const port = await freePort();
  const child = spawnLogged(process.execPath, [join(root, "bench", "baseline-server.mjs"), file], {
    cwd: root,
    env: { ...process.env, HOST: host, PORT: String(port) },
    logFile: join(resultsDir, "baseline.log"),
  });
  const origin = `http://${host}:${port}`;
  await waitForUrl(`${origin}/`, { child });
  // Check the claim "same bytes, same encoding" rather than assume it.
  const site = variants[0];
  const check = await getRaw(`${origin}/`, { "Accept-Encoding": loadAcceptEncoding });
  const sameEncoding = String(check.headers["content-encoding"] ?? "") === site.contentEncoding;
  if (!sameEncoding || check.body.length !== site.wireBytes)
    throw new Error("the baseline does not send what the site sent");
  return {
    child,
    pid: child.pid,
    origin,
    variants: variants.map(({ body: _body, headers: _headers, ...rest }) => rest),
  };
}

/** Copies <ref> out of git into a temporary directory (git archive: the repository is only read) and builds it. */
export async function prepareRef(ref, cleanups) {
  const sha = execFileSync("git", ["rev-parse", "--verify", `${ref}^{commit}`], { cwd: root, encoding: "utf8" }).trim();
  const dir = mkdtempSync(join(tmpdir(), "haunt-bench-ref-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const tar = execFileSync("git", ["archive", "--format=tar", sha], { cwd: root, maxBuffer: 256 * 1024 * 1024 });
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  await build(dir, join(resultsDir, "build-compare.log"));
  return { dir, sha };
}

/**
 * Logs in to the owner area as a browser without JavaScript does (the site's own form post); resolves with the
 * session cookie ("name=value"). Throws when the login is not answered with its redirect.
 */
/** Adds an operator to the database in `env` with the built CLI, as an operator would (`npm run inbox -- operator add`). */
export function addOperator({ cwd = root, env, email, password }) {
  const added = spawnSync(process.execPath, [join(cwd, "build/server/cli.js"), "operator", "add", email], {
    cwd,
    env: { ...process.env, ...env, API_HOST: "" },
    input: `${password}\n`,
    encoding: "utf8",
  });
  if (added.status !== 0) throw new Error(`operator add failed: ${added.stderr}`);
}

export async function ownerLogin(origin, { email, password, next = "/inbox" }) {
  const login = await fetch(`${origin}/inbox/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: new URL(origin).origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password, next }),
  });
  const cookie = login.headers.get("set-cookie")?.split(";")[0];
  if (login.status !== 302 || !cookie) throw new Error(`login failed: ${login.status}`);
  return cookie;
}
