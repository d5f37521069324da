import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSiteContent } from "~/site-content/schema.server";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { pipelineCopy } from "~/wording/pipeline";
import { runInbox } from "../support/inbox-command";
import { postgresAvailable } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { sendAs } from "../support/site-http";
import { publishSite } from "../support/site-page";
import { ensureBuilt, startSite, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * The commission pipeline on the enquiry page, through the built server without JavaScript: an enquiry carried from
 * New to Delivered with its amounts, each change in the timeline and the activity log; refusals that keep what was
 * typed; two operators saving the same enquiry (the later one refused, nothing lost); notes; who is waiting; the
 * Pipeline page; the CSV and `npm run inbox -- --json`. The store's side again on PostgreSQL.
 */

const publicUrl = "http://pipeline.example";
const temp = useTempDir("haunt-pipeline-");
const password = "a coffin full of moonlit bats";
const services = defaultSiteContent.services.map((service) => service.name);
let site: SiteServer;
let databasePath: string;
let cookie: string;
let store: InboxStore;

const send = (path: string, options: Parameters<typeof sendAs>[3] = {}) =>
  sendAs(publicUrl, site.url, path, { cookie, ...options });

const decoded = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const page = async (path: string) => decoded((await send(path)).text);
const revisionIn = (html: string) => /name="revision" value="(\d+)"/.exec(html)![1]!;
/** The timeline section's text, tags dropped. */
const timelineOf = (html: string) =>
  /<section aria-labelledby="timeline"[\s\S]*?<\/ol>/
    .exec(html)![0]
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
const fieldValue = (html: string, name: string) =>
  new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1] ??
  new RegExp(`<input[^>]*value="([^"]*)"[^>]*name="${name}"`).exec(html)?.[1];

const blank = {
  lostReason: "",
  quoteAmount: "",
  quoteValidUntil: "",
  depositAmount: "",
  neededBy: "",
  service: "",
};

async function saveStage(id: string, fields: Record<string, string>, revision?: string) {
  const at = revision ?? revisionIn(await page(`/inbox/${id}`));
  return send(`/inbox/${id}`, { method: "POST", body: { intent: "stage", ...blank, ...fields, revision: at } });
}

const day = 86_400_000;

beforeAll(async () => {
  await ensureBuilt();
  databasePath = temp.file("inbox.db");
  const cli = await runInbox(["operator", "add", "ann@example.com"], {
    env: { DATABASE_URL: `file:${databasePath}`, PUBLIC_URL: publicUrl, API_HOST: "" },
    input: `${password}\n`,
  });
  expect(cli.status, cli.stderr).toBe(0);
  await publishSite(`file:${databasePath}`, {
    ...defaultSiteContent,
    business: { ...defaultSiteContent.business, currency: "EUR" },
  });
  site = await startSite({ API_HOST: "", DATABASE_URL: `file:${databasePath}`, PUBLIC_URL: publicUrl });
  const login = await sendAs(publicUrl, site.url, "/inbox/login", {
    method: "POST",
    body: { email: "ann@example.com", password, next: "/inbox" },
  });
  expect(login.status).toBe(302);
  cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;
  store = await openInboxStore({ kind: "sqlite", path: databasePath }, { timeoutMs: 10_000 });
}, 60_000);
afterAll(async () => {
  await site?.stop();
  await store?.close();
});

describe("an enquiry carried from New to Delivered", () => {
  it("saves each stage with what it carries, in the timeline and the activity log, and exports it", async () => {
    const { id } = await store.save(
      { name: "Vera Voss", email: "vera@example.com", message: "A lunging reaper for our barn.", service: services[1] },
      ["email"],
      new Date(Date.now() - 4 * day),
    );
    let html = await page(`/inbox/${id}`);
    expect(html).toContain("Stage: <span");
    expect(html).toContain(pipelineCopy.waitingBadge);
    // An enquiry that starts from a project's page starts with its service.
    expect(html).toMatch(new RegExp(`<option value="${services[1]}" selected="">`));
    expect(await page("/inbox")).toContain("1 customer is waiting for a reply, the oldest for 4 days.");

    const steps: [Record<string, string>, string][] = [
      [{ stage: "replied", service: services[1]! }, "Stage New → Replied"],
      [
        { stage: "quoted", quoteAmount: "€1,500.50", quoteValidUntil: "2027-01-31", service: services[1]! },
        "Stage Replied → Quoted (quote €1,500.50, quote valid until 2027-01-31)",
      ],
      [
        {
          stage: "deposit",
          quoteAmount: "1500.50",
          quoteValidUntil: "2027-01-31",
          depositAmount: "500",
          neededBy: "2027-09-30",
          service: services[1]!,
        },
        "Stage Quoted → Deposit paid (deposit €500.00, needed by 2027-09-30)",
      ],
      [
        {
          stage: "building",
          quoteAmount: "1500.50",
          quoteValidUntil: "2027-01-31",
          depositAmount: "500",
          neededBy: "2027-09-30",
          service: services[1]!,
        },
        "Stage Deposit paid → Building",
      ],
      [
        {
          stage: "delivered",
          quoteAmount: "1500.50",
          quoteValidUntil: "2027-01-31",
          depositAmount: "500",
          neededBy: "2027-09-30",
          service: services[1]!,
        },
        "Stage Building → Delivered",
      ],
    ];
    for (const [fields, line] of steps) {
      const saved = await saveStage(id, fields);
      expect(saved.status, decoded(saved.text).slice(0, 300)).toBe(303);
      expect(saved.headers.location).toBe(`/inbox/${id}?done=stage`);
      expect(timelineOf(await page(`/inbox/${id}`))).toContain(line);
    }
    const enquiry = (await store.getEnquiry(id))!;
    expect(enquiry.commission).toMatchObject({
      stage: "delivered",
      quoteAmount: 150_050,
      quoteValidUntil: "2027-01-31",
      depositAmount: 50_000,
      neededBy: "2027-09-30",
      service: services[1],
      revision: 5,
    });
    expect(enquiry.commission.deliveredAt).not.toBeNull();
    // Leaving New was the owner's answer: nobody waits, and the figures have a first reply.
    expect(enquiry.commission.firstReplyAt).not.toBeNull();
    html = await page(`/inbox/${id}`);
    expect(html).not.toContain(pipelineCopy.waitingBadge);
    expect(await page("/inbox")).not.toContain("waiting for a reply");
    const activity = await page("/inbox/activity");
    for (const action of ["stage new -> replied", "stage replied -> quoted", "stage building -> delivered"])
      expect(activity).toContain(action);
    // The same again changes nothing and says so.
    const again = await saveStage(id, steps.at(-1)![0]);
    expect(again.headers.location).toBe(`/inbox/${id}?done=stage-unchanged`);

    const csv = (await send("/inbox/export.csv?folder=all")).text;
    expect(csv.split("\r\n")[0]).toContain(
      "stage,lostReason,quoteAmount,quoteValidUntil,depositAmount,neededBy,service",
    );
    expect(csv).toContain(`delivered,,1500.50,2027-01-31,500.00,2027-09-30,${services[1]}`);
    const json = await runInbox(["--json"], {
      env: { DATABASE_URL: `file:${databasePath}`, PUBLIC_URL: publicUrl, API_HOST: "" },
    });
    expect(JSON.parse(json.stdout)[0]).toMatchObject({
      id,
      status: "new",
      stage: "delivered",
      quoteAmount: 1500.5,
      depositAmount: 500,
      currency: "EUR",
      neededBy: "2027-09-30",
      service: services[1],
    });
  });

  it("refuses a stage without what it needs, in words, keeping what was typed", async () => {
    const { id } = await store.save({ name: "Ike", email: "ike@example.com", message: "Fog machines?" }, ["email"]);
    const quoted = await saveStage(id, { stage: "quoted", quoteAmount: "", neededBy: "2027-10-01" });
    expect(quoted.status).toBe(422);
    let html = decoded(quoted.text);
    expect(html).toContain(pipelineCopy.form.errors.quoteRequired);
    expect(fieldValue(html, "neededBy")).toBe("2027-10-01");
    const lost = await saveStage(id, { stage: "lost", quoteAmount: "twelve", neededBy: "2027-02-30" });
    html = decoded(lost.text);
    expect(lost.status).toBe(422);
    expect(html).toContain(pipelineCopy.form.errors.lostReason);
    expect(html).toContain(pipelineCopy.form.errors.amount);
    expect(html).toContain(pipelineCopy.form.errors.date);
    expect(fieldValue(html, "quoteAmount")).toBe("twelve");
    const other = await saveStage(id, { stage: "building", service: "Unicorn rides" });
    expect(decoded(other.text)).toContain(pipelineCopy.form.errors.service);
    expect((await store.getEnquiry(id))!.commission).toMatchObject({ stage: "new", revision: 0 });
    const lostForPrice = await saveStage(id, { stage: "lost", lostReason: "price" });
    expect(lostForPrice.status).toBe(303);
    expect(timelineOf(await page(`/inbox/${id}`))).toContain("Stage New → Lost (reason Price)");
  });

  it("refuses the later of two changes made from the same page, in words, with the typed values kept", async () => {
    const { id } = await store.save({ name: "Otto", email: "otto@example.com", message: "A crawling zombie." }, [
      "email",
    ]);
    const loaded = revisionIn(await page(`/inbox/${id}`));
    // Two operators opened the page; the first quotes it.
    expect((await saveStage(id, { stage: "quoted", quoteAmount: "900" }, loaded)).status).toBe(303);
    const later = await saveStage(id, { stage: "lost", lostReason: "timing", neededBy: "2027-08-01" }, loaded);
    expect(later.status).toBe(409);
    const html = decoded(later.text);
    expect(html).toContain(pipelineCopy.form.errors.stale);
    expect(fieldValue(html, "neededBy")).toBe("2027-08-01");
    expect(html).toContain('<option value="lost" selected="">');
    // The first change stands, alone in the timeline; the form now carries the new revision.
    expect((await store.getEnquiry(id))!.commission).toMatchObject({
      stage: "quoted",
      quoteAmount: 90_000,
      revision: 1,
    });
    expect(timelineOf(html)).not.toContain("Lost");
    expect(revisionIn(html)).toBe("1");
    // Pressed again, the owner's change replaces the other.
    expect((await saveStage(id, { stage: "lost", lostReason: "timing" }, "1")).status).toBe(303);
  });
});

describe("notes and who is waiting", () => {
  it("adds private notes to the timeline, refuses an empty one, and counts who waits", async () => {
    const { id } = await store.save({ name: "Nell", email: "nell@example.com", message: "Props?" }, ["email"]);
    const empty = await send(`/inbox/${id}`, { method: "POST", body: { intent: "note", note: "   " } });
    expect(empty.status).toBe(422);
    expect(decoded(empty.text)).toContain(pipelineCopy.note.empty);
    const note = await send(`/inbox/${id}`, {
      method: "POST",
      body: { intent: "note", note: "Called her: wants it by <September>." },
    });
    expect(note.headers.location).toBe(`/inbox/${id}?done=note`);
    const html = await page(`/inbox/${id}`);
    expect(timelineOf(html)).toContain("Note");
    expect(html).toContain("Called her: wants it by <September>.");
    expect(await page("/inbox/activity")).not.toContain("wants it by");
    expect(await page("/inbox")).toMatch(/\d customers? (is|are) waiting for a reply/);
    // Mark handled is an answer: it stops waiting.
    await send(`/inbox/${id}`, { method: "POST", body: { intent: "handled" } });
    expect((await store.getEnquiry(id))!.commission.answeredAt).not.toBeNull();
  });

  it("lists the open enquiries by stage on the Pipeline page, waiting first and oldest first, with quoted totals", async () => {
    const older = await store.save(
      { name: "Old Quinn", email: "q1@example.com", message: "Quote?" },
      ["email"],
      new Date(Date.now() - 9 * day),
    );
    const newer = await store.save(
      { name: "New Quinn", email: "q2@example.com", message: "Quote??" },
      ["email"],
      new Date(Date.now() - 2 * day),
    );
    for (const { id } of [newer, older])
      expect((await saveStage(id, { stage: "quoted", quoteAmount: "1000" })).status).toBe(303);
    const spam = await store.save({ name: "Spammer", email: "s@example.com", message: "buy" }, ["email"], new Date(), {
      verdict: "spam",
      score: 0.99,
      reasons: [],
    });
    const html = await page("/inbox/pipeline");
    expect(html).toMatch(/<a [^>]*aria-current="page"[^>]*href="\/inbox\/pipeline"[^>]*>Pipeline<\/a>/);
    const quoted = /<section aria-labelledby="stage-quoted"[\s\S]*?<\/section>/.exec(html)![0];
    const summary = /data-stage-summary="quoted">([^<]*)</.exec(quoted)![1];
    const inQuoted = (await store.pipeline(100)).find((stage) => stage.stage === "quoted")!;
    expect(summary).toContain(`${inQuoted.count} enquir`);
    expect(summary).toContain(
      `quoted €${(inQuoted.quotedTotal / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`,
    );
    expect(quoted.indexOf("Old Quinn")).toBeLessThan(quoted.indexOf("New Quinn"));
    expect(html).not.toContain("Spammer");
    expect(html).not.toContain(spam.id);
    // Delivered and lost are not open: not on the page.
    expect(html).not.toContain('aria-labelledby="stage-delivered"');
  });
});

describe.runIf(postgresAvailable)("the pipeline's store on PostgreSQL", () => {
  it("saves a stage once from two connections at the same revision, the other refused as stale", async () => {
    const databases = await sharedPostgres();
    const url = await databases.createDatabase();
    const [one, two] = await Promise.all([
      openInboxStore({ kind: "postgres", url }, { timeoutMs: 10_000 }),
      openInboxStore({ kind: "postgres", url }, { timeoutMs: 10_000 }),
    ]);
    try {
      const { id } = await one.save({ name: "Pia", email: "pia@example.com", message: "Hi", service: "Scenic" }, [
        "email",
      ]);
      const change = {
        stage: "quoted" as const,
        lostReason: null,
        quoteAmount: 100,
        quoteValidUntil: null,
        depositAmount: null,
        neededBy: null,
        service: null,
      };
      const outcomes = await Promise.all([
        one.saveStage(id, change, 0, "a@example.com"),
        two.saveStage(id, { ...change, quoteAmount: 200 }, 0, "b@example.com"),
      ]);
      expect(outcomes.map((o) => o.outcome).sort()).toEqual(["saved", "stale"]);
      const timeline = await one.timeline(id);
      expect(timeline.filter((event) => event.kind === "stage")).toHaveLength(1);
      expect((await two.getEnquiry(id))!.commission.revision).toBe(1);
      expect(await one.addNote(id, "a note", "a@example.com")).toBe(true);
      expect(await one.addNote("no-such-id", "a note", "a@example.com")).toBe(false);
      expect((await one.waiting()).count).toBe(0);
      const { id: waitingId } = await one.save({ name: "Rex", email: "rex@example.com", message: "Hello" }, ["email"]);
      expect(await two.waiting()).toMatchObject({ count: 1 });
      await two.setStatus(waitingId, "handled", "b@example.com");
      expect((await one.waiting()).count).toBe(0);
    } finally {
      await Promise.all([one.close(), two.close()]);
      await databases.stop();
    }
  });
});
