import { createHash } from "node:crypto";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import sharp from "sharp";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPageCopy } from "~/wording/build-page";
import { securityCopy } from "~/wording/security";
import { isWaiting } from "~/store/pipeline.types";
import { openInboxStore } from "~/store/store.server";
import { guessesPerHour } from "~/http/guess-limit.server";
import { cameraJpeg } from "../support/fixture-photos.mjs";
import { runInbox } from "../support/inbox-command";
import { sendAs, type Answer } from "../support/site-http";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";
import { postgresAvailable } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import pg from "pg";

/**
 * The customer's build page through the built server on SQLite, as browsers without JavaScript use it: the owner
 * shares it (step-up first when the last code is old), the customer's page is private (noindex, no-store, not in the
 * sitemap), an update with a phone photo carrying GPS and camera EXIF is posted, encoded and served only under the
 * token with none of that data in any byte, the customer answers (the timeline, `customer_at`, waiting, the owner's
 * e-mail), and a revoked, unknown or expired token is the same 404; guesses past the limit are answered 429.
 */

const publicUrl = "http://build.example";
const temp = useTempDir("haunt-build-page-");
const ann = "ann@grimforge.example";
const password = "a coffin full of moonlit bats";
const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
const words = buildPageCopy;
/** A stage change that carries nothing but its stage. */
const noChange = {
  lostReason: null,
  quoteAmount: null,
  quoteValidUntil: null,
  depositAmount: null,
  neededBy: null,
  service: null,
};

let site: SiteServer;
let sink: SmtpSink;
let databasePath: string;
let enquiryId: string;
let earlyId: string;
let deliveredId: string;
let cookie: string;
let token: string;

const send = (path: string, options: { method?: string; body?: Record<string, string>; cookie?: string } = {}) =>
  sendAs(publicUrl, site.url, path, options);
const owner = (path: string, options: { method?: string; body?: Record<string, string> } = {}) =>
  send(path, { ...options, cookie });

let lastStep = 0;
function nextCode(): string {
  const step = Math.max(lastStep + 1, Math.floor(Date.now() / 30_000));
  lastStep = step;
  return totp.generate({ timestamp: step * 30_000 });
}
const cookieOf = (answer: Answer) => answer.headers["set-cookie"]![0]!.split(";")[0]!;
const decoded = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

function sql<T = Record<string, unknown>>(statement: string, ...params: (string | number | null)[]): T[] {
  const db = new DatabaseSync(databasePath, { timeout: 5_000 });
  try {
    const prepared = db.prepare(statement);
    return /^\s*select/i.test(statement) ? (prepared.all(...params) as T[]) : (prepared.run(...params), [] as T[]);
  } finally {
    db.close();
  }
}

const stageLine = (id: string, at: number, from: string, to: string) =>
  sql(
    "INSERT INTO enquiry_events (id, enquiry_id, at, kind, actor, body, detail) VALUES (?, ?, ?, 'stage', ?, NULL, ?)",
    `${id}-${to}`,
    id,
    at,
    ann,
    JSON.stringify({ from, to }),
  );

/** The link shown in the build page section (the page also lists mails that carried earlier links). */
const tokenIn = (html: string) => /<input[^>]*value="[^"]*\/build\/([0-9a-f]{64})"/.exec(html)?.[1];

/** Shares the enquiry's build page with a fresh factor; resolves with the token shown on the enquiry page. */
async function share(id: string): Promise<string> {
  const shared = await owner(`/inbox/${id}`, { method: "POST", body: { intent: "share-build" } });
  expect(shared.status, shared.text.slice(0, 300)).toBe(302);
  expect(shared.headers.location).toBe(`/inbox/${id}?done=build-shared#build-page`);
  const shown = tokenIn((await owner(`/inbox/${id}`)).text);
  expect(shown).toBeDefined();
  return shown!;
}

beforeAll(async () => {
  await ensureBuilt();
  databasePath = join(temp.dir(), "inbox.db");
  const cli = (args: string[], input = "") =>
    runInbox(args, { env: { DATABASE_URL: `file:${databasePath}`, PUBLIC_URL: publicUrl, API_HOST: "" }, input });
  expect((await cli(["operator", "add", ann], `${password}\n`)).status).toBe(0);
  const store = await openInboxStore({ kind: "sqlite", path: databasePath }, { timeoutMs: 5_000 });
  try {
    const annId = (await store.findOperator(ann))!.id;
    expect(await store.startTotp(annId, secret)).toBe(true);
    expect(await store.takeTotpStep(annId, 1, { confirm: true })).toBe(true);
    const save = async (name: string, email: string) => (await store.save({ name, email, message: "A skull." }, [])).id;
    enquiryId = await save("Morticia Addams", "morticia@example.com");
    earlyId = await save("Early Bird", "early@example.com");
    deliveredId = await save("Gomez Addams", "gomez@example.com");
  } finally {
    await store.close();
  }
  // Deposit paid (the stage form is another part's): set as it would, with its timeline lines.
  const day = 24 * 60 * 60_000;
  const now = Date.now();
  sql(
    "UPDATE enquiries SET stage = 'deposit', service = 'Animatronic skeleton', answered_at = ? WHERE id = ?",
    now - day,
    enquiryId,
  );
  stageLine(enquiryId, now - 3 * day, "new", "replied");
  stageLine(enquiryId, now - 2 * day, "replied", "quoted");
  stageLine(enquiryId, now - day, "quoted", "deposit");
  sql("UPDATE enquiries SET stage = 'delivered', delivered_at = ? WHERE id = ?", now - day, deliveredId);

  sink = await startSmtpSink();
  site = await startSite({
    API_HOST: "",
    DATABASE_URL: `file:${databasePath}`,
    PUBLIC_URL: publicUrl,
    INBOX_REQUIRE_2FA: "on",
    SPAM_FILTER: "off",
    SMTP_URL: sink.url,
    NOTIFY_EMAIL_TO: "owner@grimforge.example",
    NOTIFY_EMAIL_FROM: "site@grimforge.example",
  });
  const login = await send("/inbox/login", { method: "POST", body: { email: ann, password, next: "/inbox" } });
  expect(login.status).toBe(302);
  const verified = await send("/inbox/verify", {
    method: "POST",
    cookie: cookieOf(login),
    body: { code: nextCode(), next: "/inbox" },
  });
  expect(verified.status).toBe(302);
  cookie = cookieOf(verified);
}, 60_000);

afterAll(async () => {
  await site?.stop();
  await sink?.stop();
});

describe("sharing the build page", () => {
  it("is refused in words before Deposit paid", async () => {
    expect(decoded((await owner(`/inbox/${earlyId}`)).text)).toContain(words.owner.notYet);
    const refused = await owner(`/inbox/${earlyId}`, { method: "POST", body: { intent: "share-build" } });
    expect(refused.status).toBe(409);
    expect(decoded(refused.text)).toContain(words.owner.errors.stage);
    expect(sql("SELECT * FROM build_pages WHERE enquiry_id = ?", earlyId)).toHaveLength(0);
  });

  it("asks for the code again when the last one is old, then shares a link of 256 random bits", async () => {
    const hash = createHash("sha256").update(cookie.split("=")[1]!).digest("hex");
    sql("UPDATE sessions SET factor_at = ? WHERE id_hash = ?", Date.now() - 11 * 60_000, hash);
    const asked = await owner(`/inbox/${enquiryId}`, { method: "POST", body: { intent: "share-build" } });
    expect(asked.status).toBe(302);
    const next = `/inbox/${enquiryId}?build=again#build-page`;
    expect(asked.headers.location).toBe(`/inbox/verify?next=${encodeURIComponent(next)}&again=1`);
    expect(sql("SELECT * FROM build_pages WHERE enquiry_id = ?", enquiryId)).toHaveLength(0);
    expect(decoded((await owner(asked.headers.location!)).text)).toContain(securityCopy.verify.againWhy["build-page"]);
    const verified = await owner("/inbox/verify", { method: "POST", body: { code: nextCode(), next } });
    expect(verified.headers.location).toBe(next);

    token = await share(enquiryId);
    const [row] = sql<{ token_hash: string; token_sealed: string }>(
      "SELECT token_hash, token_sealed FROM build_pages WHERE enquiry_id = ?",
      enquiryId,
    );
    expect(Buffer.from(token, "hex")).toHaveLength(32);
    expect(row!.token_hash).toBe(createHash("sha256").update(token).digest("hex"));
    // The enquiry page shows the same link again (kept sealed when SECRETS_KEY is set; here in clear).
    expect(tokenIn((await owner(`/inbox/${enquiryId}`)).text)).toBe(token);
    const timeline = sql<{ kind: string }>(
      "SELECT kind FROM enquiry_events WHERE enquiry_id = ? AND kind = 'build-page'",
      enquiryId,
    );
    expect(timeline).toHaveLength(1);
  });

  it("is a private page: not indexed, not stored by caches, not in the sitemap, no scripts", async () => {
    const page = await send(`/build/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toMatch(/^private, no-store/);
    expect(page.headers["x-robots-tag"]).toMatch(/noindex/);
    expect(page.text).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    expect(page.text).not.toMatch(/<script/);
    const html = decoded(page.text);
    expect(html).toContain("Animatronic skeleton");
    for (const stage of ["new", "replied", "quoted", "deposit"] as const)
      expect(html).toContain(words.stageNames[stage]);
    // The stages still to come are shown as such, undated: the customer sees where the build is heading.
    const ahead = [...html.matchAll(/<li[^>]*data-stage-ahead[^>]*>(.*?)<\/li>/gs)].map((m) => m[1]!);
    expect(ahead.map((item) => item.match(/<p[^>]*>(.*?)<\/p>/)![1])).toEqual([
      words.stageNames.building,
      words.stageNames.delivered,
    ]);
    for (const item of ahead) expect(item).toContain(words.page.ahead);
    expect(html).not.toContain("morticia@example.com");
    const sitemap = await send("/sitemap.xml");
    expect(sitemap.text).not.toContain("/build/");
  });
});

describe("an update with a phone photo", () => {
  it("is posted, encoded, and served only under the token with no location or camera data in any byte", async () => {
    const photo = await cameraJpeg();
    expect(photo.includes(Buffer.from("FixtureCam"))).toBe(true);
    const form = new FormData();
    form.append("body", "The skeleton has its arms.");
    form.append("email", "1");
    form.append("photos", new File([new Uint8Array(photo)], "IMG_2041.jpg", { type: "image/jpeg" }));
    const encoded = new Response(form);
    const posted = await sendAs(publicUrl, site.url, `/inbox/${enquiryId}/updates`, {
      method: "POST",
      cookie,
      upload: { bytes: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! },
    });
    expect(posted.status, posted.text.slice(0, 500)).toBe(303);
    expect(posted.headers.location).toBe(`/inbox/${enquiryId}?done=build-posted#build-page`);
    const [update] = sql<{ emailed: number; photos: string }>(
      "SELECT emailed, photos FROM build_updates WHERE enquiry_id = ?",
      enquiryId,
    );
    expect(update!.emailed).toBe(1);
    // "E-mail the customer": "New photos of your build" with the page's link, to the customer, once.
    await waitFor(
      () => sink.messages.some((mail) => mail.headers.get("subject")?.[0] === "New photos of your build"),
      "the customer's e-mail",
      20_000,
    );
    const mails = sink.messages.filter((mail) => mail.headers.get("subject")?.[0] === "New photos of your build");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.envelope.to).toEqual(["morticia@example.com"]);
    expect(mails[0]!.text).toContain(`${publicUrl}/build/${token}`);
    expect(mails[0]!.headers.get("in-reply-to")?.[0]).toMatch(/^<enquiry-/);

    await waitFor(
      async () => !(await send(`/build/${token}`)).text.includes("data-photo-preparing"),
      "the update's photo to be encoded",
      50_000,
    );
    const html = decoded((await send(`/build/${token}`)).text);
    expect(html).toContain("The skeleton has its arms.");
    const sources = [
      ...new Set(
        [...html.matchAll(/\/build\/[0-9a-f]{64}\/photo\/(p-[0-9a-f]{10}-[0-9]+\.(?:avif|webp|jpeg))/g)].map(
          (m) => m[1]!,
        ),
      ),
    ];
    expect(sources.length).toBeGreaterThanOrEqual(3);
    expect(html).not.toMatch(/src="\/photos\/p-/);
    for (const name of sources) {
      const served = await fetch(`${site.url}/build/${token}/photo/${name}`, {
        headers: { Host: new URL(publicUrl).host },
      });
      expect(served.status).toBe(200);
      expect(served.headers.get("cache-control")).toMatch(/private, no-store/);
      const bytes = Buffer.from(await served.arrayBuffer());
      for (const secretText of ["FixtureCam", "Workshop Phone", "Secret Workshop Town", "Fixture lens", "2026:10:01"])
        expect(bytes.includes(Buffer.from(secretText)), `${name} holds ${secretText}`).toBe(false);
      const metadata = await sharp(bytes).metadata();
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      // The same file is no public photo, and another token (or none) does not reach it.
      expect((await fetch(`${site.url}/photos/${name}`)).status).toBe(404);
      expect((await send(`/build/${"0".repeat(64)}/photo/${name}`)).status).toBe(404);
    }
    // Not one of the site's photos: the Photos page's library does not list it.
    expect(decoded((await owner("/inbox/site/photos")).text)).not.toContain("IMG_2041.jpg");
  }, 60_000);
});

describe("a refused update", () => {
  it("says why in words and shows the form again with what was typed", async () => {
    const form = new FormData();
    form.append("body", "x".repeat(5001));
    const encoded = new Response(form);
    const refused = await sendAs(publicUrl, site.url, `/inbox/${enquiryId}/updates`, {
      method: "POST",
      cookie,
      upload: { bytes: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! },
    });
    expect(refused.status).toBe(400);
    const html = decoded(refused.text);
    expect(html).toContain(words.owner.errors.tooLong(5000));
    expect(html).toContain("x".repeat(5001));
    expect(sql("SELECT id FROM build_updates WHERE enquiry_id = ?", enquiryId)).toHaveLength(1);
  });
});

describe("the customer's answer", () => {
  it("goes into the timeline, makes the enquiry waiting, and is announced to the owner", async () => {
    const page = await send(`/build/${token}`);
    expect(page.text).toMatch(/<form method="post"/);
    const formToken = /name="form_token" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
    const before = sql<{ customer_at: number | null; answered_at: number }>(
      "SELECT customer_at, answered_at FROM enquiries WHERE id = ?",
      enquiryId,
    )[0]!;
    expect(isWaiting({ customerAt: new Date(before.customer_at ?? 0), answeredAt: new Date(before.answered_at) })).toBe(
      false,
    );
    sql("UPDATE enquiries SET status = 'handled' WHERE id = ?", enquiryId);

    const answered = await send(`/build/${token}`, {
      method: "POST",
      body: { message: "Love it! Can the eyes glow green?", form_token: formToken, company_website: "" },
    });
    expect(answered.status, answered.text.slice(0, 300)).toBe(303);
    expect(answered.headers.location).toBe(`/build/${token}?sent=1#answer`);
    expect(decoded((await send(answered.headers.location!)).text)).toContain(words.page.sent);

    const [line] = sql<{ actor: string; body: string }>(
      "SELECT actor, body FROM enquiry_events WHERE enquiry_id = ? AND kind = 'customer'",
      enquiryId,
    );
    expect(line).toEqual({ actor: "customer", body: "Love it! Can the eyes glow green?" });
    const after = sql<{ customer_at: number; answered_at: number }>(
      "SELECT customer_at, answered_at FROM enquiries WHERE id = ?",
      enquiryId,
    )[0]!;
    expect(isWaiting({ customerAt: new Date(after.customer_at), answeredAt: new Date(after.answered_at) })).toBe(true);
    // Something to answer: back in the New folder, and counted on the inbox's first page.
    expect(sql<{ status: string }>("SELECT status FROM enquiries WHERE id = ?", enquiryId)[0]!.status).toBe("new");
    expect(decoded((await owner("/inbox")).text)).toMatch(/customers? (is|are) waiting for a reply/);

    await waitFor(
      () => sink.messages.some((mail) => mail.headers.get("subject")?.[0] === words.answerAlert.head),
      "the owner's announcement",
      20_000,
    );
    const mail = sink.messages.find((m) => m.headers.get("subject")?.[0] === words.answerAlert.head)!;
    expect(mail.envelope.to).toEqual(["owner@grimforge.example"]);
    expect(mail.text).toContain("Morticia Addams");
    expect(mail.text).toContain("Love it! Can the eyes glow green?");
    expect(mail.text).toContain(`${publicUrl}/inbox/${enquiryId}`);
    expect(mail.text).not.toContain("morticia@example.com");
    expect(mail.text).not.toContain(token);
  });

  it("is refused in words when empty, keeping the page", async () => {
    const refused = await send(`/build/${token}`, { method: "POST", body: { message: "   " } });
    expect(refused.status).toBe(400);
    expect(decoded(refused.text)).toContain(words.page.answerEmpty);
  });
});

describe("tokens that do not work", () => {
  it("revoked, unknown and expired are the same 404", async () => {
    const unknown = await send(`/build/${"0".repeat(64)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers["cache-control"]).toMatch(/^private, no-store/);

    const revoked = await owner(`/inbox/${enquiryId}`, { method: "POST", body: { intent: "revoke-build" } });
    expect(revoked.headers.location).toBe(`/inbox/${enquiryId}?done=build-revoked#build-page`);
    const gone = await send(`/build/${token}`);
    expect(gone.status).toBe(404);
    expect(gone.text).toBe(unknown.text);
    expect(gone.headers["cache-control"]).toBe(unknown.headers["cache-control"]);

    // Shared again after the revoke: a new token; the old one stays a 404.
    const again = await share(enquiryId);
    expect(again).not.toBe(token);
    expect((await send(`/build/${again}`)).status).toBe(200);
    expect((await send(`/build/${token}`)).status).toBe(404);

    const delivered = await share(deliveredId);
    expect((await send(`/build/${delivered}`)).status).toBe(200);
    sql("UPDATE enquiries SET delivered_at = ? WHERE id = ?", Date.now() - 91 * 24 * 60 * 60_000, deliveredId);
    const expired = await send(`/build/${delivered}`);
    expect(expired.status).toBe(404);
    expect(expired.text).toBe(unknown.text);
  });

  it("guesses past the limit are answered 429 with Retry-After", async () => {
    let answer: Answer | undefined;
    for (let n = 0; n <= guessesPerHour; n++) {
      answer = await send(`/build/${createHash("sha256").update(String(n)).digest("hex")}`);
      if (answer.status === 429) break;
      expect(answer.status).toBe(404);
    }
    expect(answer!.status).toBe(429);
    expect(Number(answer!.headers["retry-after"])).toBeGreaterThan(0);
    expect(answer!.headers["cache-control"]).toMatch(/no-store/);
  });
});

describe("erasing the customer", () => {
  it("takes the updates' photos and the announcements of their answers with the enquiry", async () => {
    expect(sql("SELECT name FROM photo_files WHERE rendition_key LIKE 'build-%'").length).toBeGreaterThan(0);
    const erased = await owner(`/inbox/${enquiryId}/erase`, { method: "POST" });
    expect(erased.headers.location).toBe("/inbox?erased=1");
    expect(sql("SELECT name FROM photo_files WHERE rendition_key LIKE 'build-%'")).toHaveLength(0);
    expect(sql("SELECT key FROM photo_renditions WHERE key LIKE 'build-%'")).toHaveLength(0);
    expect(sql("SELECT id FROM owner_alerts WHERE kind = 'customer-answer'")).toHaveLength(0);
    expect(sql("SELECT id FROM build_updates WHERE enquiry_id = ?", enquiryId)).toHaveLength(0);
    expect(sql("SELECT id FROM enquiry_events WHERE enquiry_id = ?", enquiryId)).toHaveLength(0);
  });
});

describe("the link kept to be shown again", () => {
  it("is sealed with SECRETS_KEY, opens to the same link, and is looked up by its hash", async () => {
    const key = new Uint8Array(32).fill(7);
    const path = join(temp.dir(), "sealed.db");
    const store = await openInboxStore({ kind: "sqlite", path }, { timeoutMs: 5_000, secretsKey: key });
    try {
      const { id } = await store.save({ name: "Wednesday", email: "wednesday@example.com", message: "A cello." }, []);
      expect(await store.shareBuildPage(id, ann)).toEqual({ ok: false, refusal: "stage" });
      const db = new DatabaseSync(path, { timeout: 5_000 });
      try {
        db.prepare("UPDATE enquiries SET stage = 'building' WHERE id = ?").run(id);
        const shared = await store.shareBuildPage(id, ann);
        expect(shared.ok).toBe(true);
        const link = shared.ok ? shared.link : null;
        const row = db.prepare("SELECT token_sealed FROM build_pages WHERE enquiry_id = ?").get(id) as {
          token_sealed: string;
        };
        expect(row.token_sealed).toMatch(/^v1:/);
        expect(row.token_sealed).not.toContain(link!.token);
        expect((await store.buildPageLink(id))!.token).toBe(link!.token);
        expect((await store.sharedBuild(link!.token))?.enquiryId).toBe(id);
        // Shared again while active: the same link.
        const again = await store.shareBuildPage(id, ann);
        expect(again.ok && again.link.token).toBe(link!.token);
      } finally {
        db.close();
      }
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(!postgresAvailable)("on PostgreSQL", () => {
  it("shares, shows, takes updates and answers, revokes and erases as on SQLite", async () => {
    const postgres = await sharedPostgres();
    const url = await postgres.createDatabase();
    const store = await openInboxStore({ kind: "postgres", url }, { timeoutMs: 10_000 });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { id } = await store.save({ name: "Pugsley", email: "pugsley@example.com", message: "A rocket." }, []);
      await client.query("UPDATE enquiries SET stage = 'deposit' WHERE id = $1", [id]);
      await client.query(
        "INSERT INTO enquiry_events (id, enquiry_id, at, kind, actor, detail) VALUES ($1, $2, $3, 'stage', $4, $5)",
        [`${id}-deposit`, id, Date.now(), ann, JSON.stringify({ from: "quoted", to: "deposit" })],
      );
      const shared = await store.shareBuildPage(id, ann);
      if (!shared.ok) throw new Error("not shared");
      const build = await store.sharedBuild(shared.link.token);
      expect(build?.stages.map((s) => s.stage)).toEqual(["new", "deposit"]);
      const update = await store.postBuildUpdate(id, {
        author: ann,
        body: "Fins on.",
        photos: [{ upload: "u1", key: "build-k1" }],
        mail: {
          subject: "New photos of your build",
          body: "Fins on.\nhttp://x/build/t",
          fromAddress: "site@example.com",
        },
      });
      expect(update).toMatchObject({ body: "Fins on.", emailed: true, photos: [{ upload: "u1", key: "build-k1" }] });
      // The customer's e-mail is queued with it, threaded after the enquiry's own notification.
      expect(await store.outgoingMailOf(id)).toMatchObject([
        { kind: "build-update", subject: "New photos of your build", state: "pending" },
      ]);
      expect(await store.buildUpdates(id)).toHaveLength(1);
      expect(await store.buildPhotoFile(id, "p-0000000000-480.jpeg")).toBeNull();
      expect(await store.answerFromBuildPage(id, "Can it fly?", ["email"])).toBe(true);
      const [alert] = await store.claimOwnerAlerts(5);
      expect(alert).toMatchObject({
        kind: "customer-answer",
        operatorEmail: null,
        customerName: "Pugsley",
        enquiryId: id,
        detail: "Can it fly?",
        channel: "email",
      });
      const events = await client.query("SELECT kind FROM enquiry_events WHERE enquiry_id = $1 ORDER BY at", [id]);
      expect(events.rows.map((row: { kind: string }) => row.kind)).toEqual(
        expect.arrayContaining(["stage", "build-page", "update", "customer"]),
      );
      expect(await store.revokeBuildPage(id, ann)).toBe(true);
      expect(await store.sharedBuild(shared.link.token)).toBeNull();
      expect(await store.erase("pugsley@example.com")).toBe(1);
      expect((await client.query("SELECT id FROM owner_alerts")).rows).toHaveLength(0);
    } finally {
      await client.end();
      await store.close();
    }
  });
});

describe("the customer's answer with the spam filter on (the product's default)", () => {
  it("keeps one the filter takes for spam in the timeline, marked, announced to nobody and not waiting", async () => {
    const path = join(temp.dir(), "filtered.db");
    const store = await openInboxStore({ kind: "sqlite", path }, { timeoutMs: 5_000 });
    let id: string;
    let link: string;
    try {
      id = (await store.save({ name: "Wednesday", email: "wed@example.com", message: "A guillotine." }, [])).id;
      expect((await store.saveStage(id, { ...noChange, stage: "deposit", depositAmount: 100 }, 0, ann)).outcome).toBe(
        "saved",
      );
      const shared = await store.shareBuildPage(id, ann);
      if (!shared.ok) throw new Error("not shared");
      link = `/build/${shared.link.token}`;
    } finally {
      await store.close();
    }
    const filtered = await startSite({
      API_HOST: "",
      DATABASE_URL: `file:${path}`,
      PUBLIC_URL: publicUrl,
      SPAM_FILTER: "on",
    });
    try {
      const page = await sendAs(publicUrl, filtered.url, link);
      const formToken = /name="form_token" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
      // A bot fills the hidden field: it is thanked as anyone is.
      const answered = await sendAs(publicUrl, filtered.url, link, {
        method: "POST",
        body: {
          message: "Cheap watches at example.com",
          form_token: formToken,
          company_website: "http://spam.example",
        },
      });
      expect(answered.status).toBe(303);
      const check = new DatabaseSync(path, { readOnly: true });
      try {
        const lines = check
          .prepare("SELECT body, detail FROM enquiry_events WHERE enquiry_id = ? AND kind = 'customer'")
          .all(id) as { body: string; detail: string }[];
        expect(lines).toHaveLength(1);
        expect(lines[0]!.body).toBe("Cheap watches at example.com");
        expect(JSON.parse(lines[0]!.detail)).toMatchObject({ via: "build-page", spam: expect.any(Array) });
        const row = check.prepare("SELECT customer_at FROM enquiries WHERE id = ?").get(id) as {
          customer_at: number | null;
        };
        expect(row.customer_at).toBeNull();
        expect(check.prepare("SELECT id FROM owner_alerts WHERE kind = 'customer-answer'").all()).toEqual([]);
      } finally {
        check.close();
      }
    } finally {
      await filtered.stop();
    }
  });
});
