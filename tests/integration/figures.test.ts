import { createHash } from "node:crypto";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { figuresCopy } from "~/wording/figures";
import { securityCopy } from "~/wording/security";
import { openInboxStore } from "~/store/store.server";
import {
  animatronics,
  erasedAddress,
  handCount,
  saveSeason,
  scenic,
  seasonZone,
  setPipeline,
} from "../support/figures-season";
import { runInbox } from "../support/inbox-command";
import { sendAs, type Answer } from "../support/site-http";
import { ensureBuilt, startSite, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * The Figures page and its CSV through the built server on SQLite, as a browser without JavaScript asks for them: a
 * seeded season (spam, lost with reasons, quoted, won, an erased one, two services, two months, a previous year, in
 * New York's time zone) shows the numbers of a hand count; the chart is SVG in the page with a bar per month; the CSV
 * holds the same numbers and asks for the code again when the last one is over ten minutes old, like the enquiries'.
 */

const publicUrl = "http://figures.example";
const temp = useTempDir("haunt-figures-");
const ann = "ann@grimforge.example";
const password = "a coffin full of moonlit bats";
const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });

let site: SiteServer;
let databasePath: string;
let cookie: string;

const send = (path: string, options: { method?: string; body?: Record<string, string> } = {}) =>
  sendAs(publicUrl, site.url, path, { cookie, ...options });

/** Each code once: the next 30 s step not used yet (now's or the next are both accepted). */
let lastStep = 0;
function nextCode(): string {
  const step = Math.max(lastStep + 1, Math.floor(Date.now() / 30_000));
  lastStep = step;
  return totp.generate({ timestamp: step * 30_000 });
}

const cookieOf = (answer: Answer) => answer.headers["set-cookie"]![0]!.split(";")[0]!;
const sessionHash = (value: string) => createHash("sha256").update(value.split("=")[1]!).digest("hex");

const decoded = (html: string) =>
  html
    .replace(/<!--.*?-->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** A table of the page as its rows: the row's heading, then each cell by its column's name. */
function tableRows(html: string, id: string): Map<string, Record<string, string>> {
  const table = new RegExp(`<table[^>]*data-figures="${id}"[^>]*>([\\s\\S]*?)</table>`).exec(html);
  if (!table) throw new Error(`no table ${id}`);
  const rows = new Map<string, Record<string, string>>();
  for (const [, row] of table[1]!.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)) {
    const label = /<th scope="row"[^>]*>([\s\S]*?)<\/th>/.exec(row!)?.[1];
    if (label === undefined) continue;
    const cells: Record<string, string> = {};
    for (const [, column, content] of row!.matchAll(/<td[^>]*data-column="([a-z-]+)"[^>]*>([\s\S]*?)<\/td>/g))
      // Lost's reasons are lines of their own under the count: "2 timing 1; no reason given 1;".
      cells[column!] = decoded(content!.replace(/<span[^>]*>/g, " ").replace(/<\/span>/g, ";"))
        .replace(/\s+/g, " ")
        .trim();
    rows.set(decoded(label).trim(), cells);
  }
  return rows;
}

/** What a hand count's line shows on the page. */
function shown(count: {
  enquiries: number;
  spam: number;
  replied: number;
  quoted: number;
  won: number;
  conversion: string;
  medianReply: string;
  quotedTotal: number;
  wonTotal: number;
}) {
  const dollars = (cents: number) =>
    `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return {
    enquiries: String(count.enquiries),
    spam: String(count.spam),
    replied: String(count.replied),
    quoted: String(count.quoted),
    won: String(count.won),
    conversion: count.conversion,
    "median-reply": count.medianReply,
    "quoted-total": dollars(count.quotedTotal),
    "won-total": dollars(count.wonTotal),
  };
}

beforeAll(async () => {
  await ensureBuilt();
  databasePath = join(temp.dir(), "inbox.db");
  const cli = await runInbox(["operator", "add", ann], {
    env: { DATABASE_URL: `file:${databasePath}`, PUBLIC_URL: publicUrl, API_HOST: "" },
    input: `${password}\n`,
  });
  expect(cli.status).toBe(0);
  const store = await openInboxStore({ kind: "sqlite", path: databasePath }, { timeoutMs: 5_000 });
  try {
    const annId = (await store.findOperator(ann))!.id;
    expect(await store.startTotp(annId, secret)).toBe(true);
    expect(await store.takeTotpStep(annId, 1, { confirm: true })).toBe(true);
    const ids = await saveSeason(store);
    const db = new DatabaseSync(databasePath, { timeout: 5_000 });
    try {
      await setPipeline(ids, (sql, params) => db.prepare(sql).run(...params));
    } finally {
      db.close();
    }
    expect(await store.erase(erasedAddress)).toBe(1);
  } finally {
    await store.close();
  }
  site = await startSite({
    API_HOST: "",
    DATABASE_URL: `file:${databasePath}`,
    PUBLIC_URL: publicUrl,
    INBOX_REQUIRE_2FA: "on",
    SITE_TIMEZONE: seasonZone,
  });
  const login = await sendAs(publicUrl, site.url, "/inbox/login", {
    method: "POST",
    body: { email: ann, password, next: "/inbox/figures" },
  });
  expect(login.status).toBe(302);
  const verified = await sendAs(publicUrl, site.url, "/inbox/verify", {
    method: "POST",
    cookie: cookieOf(login),
    body: { code: nextCode(), next: "/inbox/figures" },
  });
  expect(verified.headers.location).toBe("/inbox/figures");
  cookie = cookieOf(verified);
}, 60_000);
afterAll(async () => {
  await site?.stop();
});

describe("the Figures page", () => {
  it("is for a logged-in operator only, and linked from the owner area's navigation", async () => {
    const anonymous = await sendAs(publicUrl, site.url, "/inbox/figures?year=2026");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.location).toBe(`/inbox/login?next=${encodeURIComponent("/inbox/figures?year=2026")}`);
    expect((await sendAs(publicUrl, site.url, "/inbox/figures.csv?year=2026")).headers.location).toMatch(
      /^\/inbox\/login/,
    );
    const list = await send("/inbox");
    expect(list.text).toMatch(/<a[^>]*href="\/inbox\/figures"[^>]*>Figures<\/a>/);
  });

  it("shows a seeded season's months, year and services as a hand count gives them", async () => {
    const page = await send("/inbox/figures?year=2026");
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toMatch(/^no-store/);
    const months = tableRows(page.text, "figures-months");
    expect([...months.keys()]).toEqual([...figuresCopy.months, figuresCopy.yearTotal]);
    expect(months.get("March")).toMatchObject({ ...shown(handCount.march2026), lost: "1 price 1;" });
    expect(months.get("October")).toMatchObject({
      ...shown(handCount.october2026),
      lost: "2 timing 1; no reason given 1;",
    });
    // Halloween night in New York is October's; New Year's Eve there was 2025's.
    for (const empty of ["January", "November"])
      expect(months.get(empty)).toMatchObject({
        enquiries: "0",
        conversion: "–",
        "median-reply": "–",
        "won-total": "$0.00",
      });
    expect(months.get(figuresCopy.yearTotal)).toMatchObject({
      ...shown(handCount.year2026),
      lost: "3 price 1; timing 1; no reason given 1;",
    });

    const services = tableRows(page.text, "figures-services");
    // The site's services in its order (those without an enquiry at zero), then the enquiries without one.
    expect([...services.keys()]).toEqual([
      "Custom electric animatronics",
      "Custom pneumatic animatronics",
      "Custom haunt electronics",
      "Scenic design and building",
      "Full haunt design and building",
      figuresCopy.noService,
    ]);
    expect(services.get(animatronics)).toMatchObject({ ...shown(handCount.animatronics2026), lost: "0" });
    expect(services.get(scenic)).toMatchObject({ ...shown(handCount.scenic2026), lost: "2 price 1; timing 1;" });
    expect(services.get(figuresCopy.noService)).toMatchObject({
      ...shown(handCount.noService2026),
      lost: "1 no reason given 1;",
    });
    expect(services.get("Custom haunt electronics")).toMatchObject({ enquiries: "0", conversion: "–" });

    // The erased enquiry counts, and nothing of it (nor of anyone) is on the page.
    for (const word of ["erase.me", "visitor", "Season visitor", "A prop for the haunt"])
      expect(page.text).not.toContain(word);
    // The small print says how each figure is counted, in which zone and currency.
    const text = decoded(page.text);
    expect(text).toContain(figuresCopy.smallPrint.heading);
    for (const item of figuresCopy.smallPrint.items("USD", seasonZone)) expect(text).toContain(item);
  });

  it("draws the chart on the server: SVG in the page, two bars per month, no chart script", async () => {
    const page = await send("/inbox/figures?year=2026");
    const svg = /<svg[^>]*data-chart="months"[^>]*>[\s\S]*?<\/svg>/.exec(page.text)?.[0];
    expect(svg).toBeDefined();
    const bars = [
      ...svg!.matchAll(/<rect[^>]*data-bar="(enquiries|won)"[^>]*data-month="(\d+)"[^>]*data-value="(\d+)"/g),
    ];
    expect(bars).toHaveLength(24);
    const value = (kind: string, month: number) =>
      Number(bars.find((bar) => bar[1] === kind && Number(bar[2]) === month)?.[3]);
    for (let month = 1; month <= 12; month++) expect(value("enquiries", month)).not.toBeNaN();
    expect([value("enquiries", 3), value("won", 3), value("enquiries", 10), value("won", 10)]).toEqual([5, 1, 6, 3]);
    expect(value("enquiries", 11)).toBe(0);
    const height = (kind: string, month: number) =>
      Number(
        new RegExp(`<rect[^>]*data-bar="${kind}"[^>]*data-month="${month}"[^>]*height="([\\d.]+)"`).exec(svg!)?.[1],
      );
    expect(height("enquiries", 10)).toBeGreaterThan(height("enquiries", 3));
    expect(height("won", 3)).toBeGreaterThan(0);
    expect(svg).toContain(`<title id="figures-chart-title">${figuresCopy.chart.title(2026)}</title>`);
    // No chart library in the browser's scripts: the page's own module only places what the loader worked out.
    const scripts = [...page.text.matchAll(/<(?:script|link)[^>]*(?:src|href)="(\/build\/[^"]+\.js)"/g)].map(
      (match) => match[1]!,
    );
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const code = (await send(script)).text;
      expect(code).not.toContain("axisTop");
      expect(code).not.toContain("replies_in_group");
    }
  });

  it("offers each year as a plain link; a year before the first enquiry is not found", async () => {
    const page = await send("/inbox/figures?year=2026");
    expect(page.text).toMatch(
      /<a[^>]*aria-current="page"[^>]*href="\/inbox\/figures\?year=2026"|<a[^>]*href="\/inbox\/figures\?year=2026"[^>]*aria-current="page"/,
    );
    expect(page.text).toContain('href="/inbox/figures?year=2025"');
    const previous = tableRows((await send("/inbox/figures?year=2025")).text, "figures-months");
    expect(previous.get("October")).toMatchObject({ enquiries: "1", won: "1", "won-total": "$500.00" });
    expect(previous.get("December")).toMatchObject({ enquiries: "1", replied: "0" });
    expect(previous.get(figuresCopy.yearTotal)).toMatchObject({ enquiries: "2", conversion: "50%" });
    expect((await send("/inbox/figures?year=2019")).status).toBe(404);
    expect((await send("/inbox/figures?year=abc")).status).toBe(404);
  });

  it("fits a phone's 390 px: the tables scroll sideways in their own region, the chart scales", async () => {
    const page = await send("/inbox/figures?year=2026");
    expect(page.text).toMatch(/<meta name="viewport" content="width=device-width, initial-scale=1"/);
    const regions = [...page.text.matchAll(/<div class="([^"]*)" role="region"[^>]*tabindex="0"/g)];
    expect(regions).toHaveLength(2);
    for (const [, classes] of regions) expect(classes).toContain("overflow-x-auto");
    expect(page.text).toMatch(/<svg viewBox="0 0 \d+ \d+"[^>]*class="h-auto w-full"/);
  });
});

describe("the figures' CSV", () => {
  const csvPath = "/inbox/figures.csv?year=2026";

  it("holds the page's numbers, every month and the year, all services and each, safe for a spreadsheet", async () => {
    const file = await send(csvPath);
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(file.headers["content-disposition"]).toBe('attachment; filename="figures-2026.csv"');
    expect(file.headers["cache-control"]).toMatch(/^no-store/);
    expect(file.text.startsWith("\uFEFF")).toBe(true);
    const lines = file.text.slice(1).split("\r\n");
    expect(lines.at(-1)).toBe("");
    expect(lines[0]).toBe(figuresCopy.csv.columns("USD").join(","));
    const row = (month: string, service: string) =>
      lines.find((line) => line.startsWith(`2026,${month},${service},`))?.split(",");
    expect(row("3", "All services")).toEqual([
      "2026",
      "3",
      "All services",
      "5",
      "1",
      "3",
      "3",
      "1",
      "1",
      "1",
      "0",
      "0",
      "0",
      "0",
      "0",
      "25.0",
      "120",
      "4500.00",
      "2500.00",
    ]);
    expect(row("10", "All services")).toEqual([
      "2026",
      "10",
      "All services",
      "6",
      "1",
      "5",
      "3",
      "3",
      "2",
      "0",
      "1",
      "0",
      "0",
      "0",
      "1",
      "60.0",
      "300",
      "4600.00",
      "4600.00",
    ]);
    expect(row("all", "All services")).toEqual([
      "2026",
      "all",
      "All services",
      "11",
      "2",
      "8",
      "6",
      "4",
      "3",
      "1",
      "1",
      "0",
      "0",
      "0",
      "1",
      "44.4",
      "210",
      "9100.00",
      "7100.00",
    ]);
    expect(row("11", "All services")!.slice(3)).toEqual([
      "0",
      "0",
      "0",
      "0",
      "0",
      "0",
      "0",
      "0",
      "0",
      "0",
      "0",
      "0",
      "",
      "",
      "0.00",
      "0.00",
    ]);
    expect(row("all", animatronics)).toEqual([
      "2026",
      "all",
      animatronics,
      "4",
      "0",
      "4",
      "4",
      "3",
      "0",
      "0",
      "0",
      "0",
      "0",
      "0",
      "0",
      "75.0",
      "270",
      "7700.00",
      "6500.00",
    ]);
    expect(row("all", figuresCopy.noService)!.slice(3, 5)).toEqual(["4", "2"]);
    // 13 lines (12 months and the year) for all services, each of the site's five services, and no service.
    expect(lines.length - 2).toBe(13 * 7);
    expect(file.text).not.toContain("erase.me");
    // In the activity log, with the year (and nothing else).
    const activity = decoded((await send("/inbox/activity")).text);
    expect(activity).toContain("exported figures CSV");
    expect(activity).toContain("year 2026");
  });

  it("asks for the code again when the last one is over ten minutes old, then comes back to the Figures page", async () => {
    const db = new DatabaseSync(databasePath, { timeout: 5_000 });
    try {
      db.prepare("UPDATE sessions SET factor_at = ? WHERE id_hash = ?").run(
        Date.now() - 11 * 60_000,
        sessionHash(cookie),
      );
    } finally {
      db.close();
    }
    const back = "/inbox/figures?year=2026";
    const asked = await send(csvPath);
    expect(asked.status).toBe(302);
    expect(asked.headers.location).toBe(`/inbox/verify?next=${encodeURIComponent(back)}&again=1`);
    expect(asked.headers["content-disposition"]).toBeUndefined();
    expect(decoded((await send(asked.headers.location!)).text)).toContain(securityCopy.verify.againWhy.figures);
    const verified = await send("/inbox/verify", { method: "POST", body: { code: nextCode(), next: back } });
    expect(verified.headers.location).toBe(back);
    const file = await send(csvPath);
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("text/csv; charset=utf-8");
  });

  it("is downloaded, not posted; a cross-site post is refused before it", async () => {
    const posted = await send(csvPath, { method: "POST", body: {} });
    expect(posted.status).toBe(405);
    expect(posted.headers.allow).toBe("GET");
    expect(posted.text).toBe(figuresCopy.csvMethod);
    const crossSite = await sendAs(publicUrl, site.url, csvPath, {
      method: "POST",
      cookie,
      body: {},
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    expect((await send("/inbox/figures.csv?year=2019")).status).toBe(404);
  });
});
