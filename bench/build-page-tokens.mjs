#!/usr/bin/env node
// npm run bench:build-tokens (issue 34): "an unknown, revoked or expired token is the same 404 in the same time".
// On the built server (`npm run build` first), started as `npm start` runs it, SQLite, TRUST_PROXY=1 so each request
// claims its own address (past 20 misses an hour one address is answered 429: a guesser with many addresses is the
// case that matters). Three enquiries are taken to Deposit paid and their build pages shared through the owner's
// forms; one is then revoked, one ends (Delivered 91 days ago). Then, in --rounds rounds, each kind of token is asked
// for once in a shuffled order on one kept-alive connection: a live token (200, the page), an unknown token of the
// right shape, a malformed one, the revoked one and the expired one. Prints each kind's median and p90 time to the
// whole answer and the ratio of its median to the unknown token's, and writes bench/results/build-tokens.json.
import { randomBytes, randomInt } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { killAllChildren, stopChild } from "./lib/proc.mjs";
import { addOperator, ownerLogin, resultsDir, startSite } from "./lib/servers.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const rounds = Number(option("--rounds", 600));
const warmup = Number(option("--warmup", 50));
const operator = { email: "owner@example.com", password: "velvet quartz owl 7394 harbour" };

mkdirSync(resultsDir, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), "haunt-bench-build-tokens-"));
const cleanUp = () => rmSync(dir, { recursive: true, force: true });
process.on("SIGINT", () => {
  killAllChildren();
  cleanUp();
  process.exit(130);
});

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const someAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** One request; resolves with the status, the body and the milliseconds to the answer's last byte. */
function ask(origin, path, { method = "GET", headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(`${origin}${path}`, { method, agent, headers }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          text: Buffer.concat(chunks).toString("utf8"),
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

const formHeaders = (origin, cookie) => ({
  Origin: origin,
  "Content-Type": "application/x-www-form-urlencoded",
  ...(cookie ? { Cookie: cookie } : {}),
});

async function sharedBuildPage(origin, cookie, db, n) {
  const posted = await ask(origin, "/contact", {
    method: "POST",
    headers: formHeaders(origin),
    body: new URLSearchParams({
      name: `Customer ${n}`,
      email: `customer${n}@example.com`,
      message: `A coffin that opens by itself, number ${n}.`,
      security: "Freddy",
    }).toString(),
  });
  if (posted.status !== 303) throw new Error(`enquiry ${n}: ${posted.status}`);
  const { id } = db.prepare("SELECT id FROM enquiries WHERE email = ?").get(`customer${n}@example.com`);
  const before = await ask(origin, `/inbox/${id}`, { headers: { Cookie: cookie } });
  const revision = /name="revision" value="([^"]*)"/.exec(before.text)?.[1] ?? "";
  const stage = await ask(origin, `/inbox/${id}`, {
    method: "POST",
    headers: formHeaders(origin, cookie),
    body: new URLSearchParams({ intent: "stage", stage: "deposit", depositAmount: "500", revision }).toString(),
  });
  if (stage.status !== 303 && stage.status !== 302) throw new Error(`stage ${n}: ${stage.status}`);
  const shared = await ask(origin, `/inbox/${id}`, {
    method: "POST",
    headers: formHeaders(origin, cookie),
    body: new URLSearchParams({ intent: "share-build" }).toString(),
  });
  if (shared.status !== 302) throw new Error(`share ${n}: ${shared.status}`);
  const page = await ask(origin, `/inbox/${id}`, { headers: { Cookie: cookie } });
  const token = /\/build\/([0-9a-f]{64})"/.exec(page.text)?.[1];
  if (!token) throw new Error(`share ${n}: no link on the enquiry page`);
  return { id, token };
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function main() {
  const siteEnv = {
    DATABASE_URL: `file:${join(dir, "inbox.db")}`,
    INBOX_FILE: join(dir, "enquiries.jsonl"),
    TRUST_PROXY: "1",
    INBOX_REQUIRE_2FA: "off",
    MEDIA_CACHE_DIR: join(dir, "media"),
  };
  addOperator({ env: siteEnv, email: operator.email, password: operator.password });
  const site = await startSite({ label: "build-tokens", apiHost: "", env: siteEnv });
  try {
    const { origin } = site;
    const db = new DatabaseSync(join(dir, "inbox.db"));
    const cookie = await ownerLogin(origin, operator);
    const live = await sharedBuildPage(origin, cookie, db, 1);
    const revoked = await sharedBuildPage(origin, cookie, db, 2);
    const expired = await sharedBuildPage(origin, cookie, db, 3);
    const revoke = await ask(origin, `/inbox/${revoked.id}`, {
      method: "POST",
      headers: formHeaders(origin, cookie),
      body: new URLSearchParams({ intent: "revoke-build" }).toString(),
    });
    if (revoke.status !== 302) throw new Error(`revoke: ${revoke.status}`);
    db.prepare("UPDATE enquiries SET stage = 'delivered', delivered_at = ? WHERE id = ?").run(
      Date.now() - 91 * 24 * 60 * 60 * 1000,
      expired.id,
    );
    db.close();

    const kinds = {
      live: () => live.token,
      unknown: () => randomBytes(32).toString("hex"),
      malformed: () => randomBytes(20).toString("hex"), // too short; lower case (the site sends capitals to lower case)
      revoked: () => revoked.token,
      expired: () => expired.token,
    };
    const expected = { live: 200, unknown: 404, malformed: 404, revoked: 404, expired: 404 };
    const times = Object.fromEntries(Object.keys(kinds).map((kind) => [kind, []]));
    const notFoundBodies = new Set();
    for (let round = 0; round < warmup + rounds; round++) {
      const order = Object.keys(kinds).sort(() => Math.random() - 0.5);
      for (const kind of order) {
        const answer = await ask(origin, `/build/${kinds[kind]()}`, { headers: { "X-Forwarded-For": someAddress() } });
        if (answer.status !== expected[kind]) throw new Error(`${kind}: ${answer.status}, expected ${expected[kind]}`);
        if (answer.status === 404) notFoundBodies.add(answer.text.replace(/nonce="[^"]*"/g, ""));
        if (round >= warmup) times[kind].push(answer.ms);
      }
    }
    const medianOf = (kind) =>
      quantile(
        [...times[kind]].sort((a, b) => a - b),
        0.5,
      );
    const base = medianOf("unknown");
    const rows = Object.keys(kinds).map((kind) => {
      const sorted = [...times[kind]].sort((a, b) => a - b);
      return {
        kind,
        status: expected[kind],
        median: quantile(sorted, 0.5),
        p90: quantile(sorted, 0.9),
        ratio: quantile(sorted, 0.5) / base,
      };
    });
    const result = {
      at: new Date().toISOString(),
      rounds,
      warmup,
      loadAverage: (await import("node:os")).loadavg()[0],
      distinctNotFoundBodies: notFoundBodies.size,
      rows,
    };
    writeFileSync(join(resultsDir, "build-tokens.json"), `${JSON.stringify(result, null, 2)}\n`);
    console.log(
      `GET /build/{token}: ${rounds} rounds after ${warmup} to warm up, kinds in a shuffled order each round`,
    );
    console.log(`load average ${result.loadAverage.toFixed(2)}; distinct 404 bodies: ${notFoundBodies.size}`);
    console.log("| token | status | median ms | p90 ms | median / unknown's |");
    console.log("|---|---|---|---|---|");
    for (const row of rows)
      console.log(
        `| ${row.kind} | ${row.status} | ${row.median.toFixed(2)} | ${row.p90.toFixed(2)} | x${row.ratio.toFixed(2)} |`,
      );
  } finally {
    agent.destroy();
    await stopChild(site.child);
    cleanUp();
  }
}

main().catch((error) => {
  console.error(error);
  killAllChildren();
  cleanUp();
  process.exit(1);
});
