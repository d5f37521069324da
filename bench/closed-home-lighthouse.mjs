#!/usr/bin/env node
// npm run bench:closed-home (issue 35): Lighthouse (mobile preset, Debian's Chromium) on `/` while orders are open and
// while they are closed, when the home page also carries "Tell me when orders open" (the embedded inbox with e-mail
// set up), side by side in one run: two built servers (`npm run build` first), one per state, the runs alternating
// open / closed so both see the same machine. Prints each state's median scores and metrics.
// Usage: npm run bench:closed-home -- [--runs N] (default 5 per state)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { categories, lighthousePage, median } from "./lib/lighthouse.mjs";
import { killAllChildren, stopChild } from "./lib/proc.mjs";
import { resultsDir, root, startSite } from "./lib/servers.mjs";

const runsAt = process.argv.indexOf("--runs");
const runs = runsAt === -1 ? 5 : Number(process.argv[runsAt + 1]);
const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const dirs = [];
process.on("SIGINT", () => {
  killAllChildren();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  process.exit(130);
});

/** A built server on its own SQLite database with e-mail set up, its published season open or closed. */
async function siteWithOrders(open) {
  const dir = mkdtempSync(join(tmpdir(), "haunt-bench-closed-home-"));
  dirs.push(dir);
  const env = {
    DATABASE_URL: `file:${join(dir, "inbox.db")}`,
    INBOX_FILE: join(dir, "enquiries.jsonl"),
    MEDIA_CACHE_DIR: join(dir, "media"),
    // Only whether e-mail is set up decides the form; nothing is sent while Lighthouse loads the page.
    SMTP_URL: "smtp://127.0.0.1:2599",
    NOTIFY_EMAIL_FROM: "site@example.com",
    NOTIFY_EMAIL_TO: "owner@example.com",
  };
  const cli = (args) =>
    spawnSync(process.execPath, [join(root, "build/server/cli.js"), ...args], {
      cwd: root,
      env: { ...process.env, ...env, API_HOST: "" },
      encoding: "utf8",
    });
  const exported = cli(["site", "export"]);
  if (exported.status !== 0) throw new Error(`site export: ${exported.stderr}`);
  const file = JSON.parse(exported.stdout);
  (file.content ?? file).season.ordersOpen = open;
  writeFileSync(join(dir, "site.json"), JSON.stringify(file));
  const imported = cli(["site", "import", join(dir, "site.json")]);
  if (imported.status !== 0) throw new Error(`site import: ${imported.stderr}`);
  const site = await startSite({ label: open ? "orders-open" : "orders-closed", apiHost: "", env });
  const html = await (await fetch(`${site.origin}/`)).text();
  if (html.includes("Tell me when orders open") === open)
    throw new Error(`the form is not as expected (open: ${open})`);
  return site;
}

const states = { open: await siteWithOrders(true), closed: await siteWithOrders(false) };
const results = { open: [], closed: [] };
try {
  for (let run = 0; run < runs; run++)
    for (const state of ["open", "closed"])
      results[state].push(await lighthousePage(`${states[state].origin}/`, { runs: 1, chromePath }));
} finally {
  for (const site of Object.values(states)) await stopChild(site.child);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

const metrics = ["fcp", "lcp", "tbt", "cls"];
const summary = Object.fromEntries(
  Object.entries(results).map(([state, list]) => [
    state,
    {
      scores: Object.fromEntries(categories.map((c) => [c, median(list.map((r) => r.scores[c]))])),
      metrics: Object.fromEntries(metrics.map((m) => [m, median(list.map((r) => r.metrics[m]))])),
    },
  ]),
);
writeFileSync(
  join(resultsDir, "closed-home.json"),
  `${JSON.stringify({ at: new Date().toISOString(), runs, loadAverage: loadavg()[0], summary }, null, 2)}\n`,
);
console.log(
  `Lighthouse mobile on /, median of ${runs} alternating runs per state; load average ${loadavg()[0].toFixed(1)}`,
);
console.log(`| orders | ${categories.join(" | ")} | FCP ms | LCP ms | TBT ms | CLS |`);
console.log(`|---|${categories.map(() => "---|").join("")}---|---|---|---|`);
for (const [state, { scores, metrics: m }] of Object.entries(summary))
  console.log(
    `| ${state} | ${categories.map((c) => scores[c]).join(" | ")} | ${Math.round(m.fcp)} | ${Math.round(m.lcp)} | ${Math.round(m.tbt)} | ${m.cls.toFixed(3)} |`,
  );
