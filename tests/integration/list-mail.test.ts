import { simpleParser } from "mailparser";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { announcementIntervalMs, createListMailRound, listMessageId } from "~/notify/list-mail.server";
import { openSqlite } from "~/store/sqlite.server";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import type { SqlClient } from "~/store/sql.server";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";

/**
 * The list's sender against a real SMTP server, on a SQLite inbox: a confirmation goes out with its link and the day it
 * ends; a refusal for good (5xx) is recorded as failed and never tried again; a passing one (4xx), a server that is
 * down or slow, is retried later and then sent once.
 */

const temp = useTempDir("haunt-list-mail-");
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink?.stop());

const email = () => ({
  smtpUrl: sink.url,
  to: ["owner@grimforge.example"],
  from: "site@grimforge.example",
});

describe("the list's sender", () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    sink.setMode("accept");
    await Promise.all(open.splice(0).map((item) => item.close()));
  });

  async function fresh(): Promise<{ store: InboxStore; db: SqlClient; run: (at: Date) => Promise<Date | null> }> {
    const path = temp.file("inbox.db");
    const store = await openInboxStore({ kind: "sqlite", path }, { timeoutMs: 5_000 });
    const db = openSqlite(path, { timeoutMs: 5_000 });
    open.push(store, db);
    let now = new Date();
    const round = createListMailRound({
      store,
      email: email(),
      publicUrl: "https://grimforge.example/",
      timeZone: "UTC",
      now: () => now,
    });
    open.push({ close: async () => round.close() });
    return {
      store,
      db,
      run: (at) => {
        now = at;
        return round.run(new AbortController().signal);
      },
    };
  }

  it("sends a confirmation with its link and the day it ends", async () => {
    const { store, db, run } = await fresh();
    const at = new Date();
    await store.joinWaitlist("Cat@Example.com", at);
    expect(await run(at)).toBeNull();
    const mail = sink.messages.find((message) => message.envelope.to.includes("cat@example.com"))!;
    const parsed = await simpleParser(mail.raw);
    expect(parsed.text).toMatch(/https:\/\/grimforge\.example\/waitlist\/confirm\/[0-9a-f]{64}\n/);
    const until = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(
      new Date(at.getTime() + 7 * 86_400_000),
    );
    expect(parsed.text).toContain(`The link works until ${until}.`);
    expect(parsed.headers.has("list-unsubscribe")).toBe(false);
    const [row] = await db.query("SELECT state, message_id FROM list_mail");
    expect(row!.state).toBe("sent");
    expect(parsed.messageId).toBe(`<${String(row!.message_id)}@grimforge.example>`);
  });

  it("a refusal for good is recorded and never retried; a passing one (4xx) is retried later and then sent", async () => {
    const { store, db, run } = await fresh();
    const at = new Date();
    sink.setMode({ reject: 550 });
    await store.joinWaitlist("dan@example.com", at);
    expect(await run(at)).toBeNull();
    const [failed] = await db.query("SELECT state, attempts, last_error FROM list_mail");
    expect(failed).toMatchObject({ state: "failed", attempts: 1 });
    expect(String(failed!.last_error)).toContain("550");
    // Not claimed again, ever.
    sink.setMode("accept");
    await run(new Date(at.getTime() + 3_600_000));
    expect(sink.messages.filter((message) => message.envelope.to.includes("dan@example.com"))).toEqual([]);

    sink.setMode({ reject: 451 });
    await store.joinWaitlist("eve@example.com", at);
    const next = await run(at);
    expect(next!.getTime()).toBeGreaterThan(at.getTime());
    const [waiting] = await db.query("SELECT state, attempts FROM list_mail WHERE state = 'pending'");
    expect(waiting).toMatchObject({ state: "pending", attempts: 1 });
    sink.setMode("accept");
    expect(await run(next!)).toBeNull();
    const sent = sink.messages.filter((message) => message.envelope.to.includes("eve@example.com"));
    expect(sent).toHaveLength(1);
    const [row] = await db.query("SELECT state, attempts FROM list_mail WHERE state = 'sent'");
    expect(row).toMatchObject({ attempts: 2 });
  });

  it("the mail server down, then slow, then back: the mail waits, is tried again, and arrives once", async () => {
    const { store, db, run } = await fresh();
    const at = new Date();
    await sink.stop();
    try {
      await store.joinWaitlist("fay@example.com", at);
      const next = await run(at);
      expect(next!.getTime()).toBeGreaterThan(at.getTime());
      const [waiting] = await db.query("SELECT state, attempts, last_error FROM list_mail");
      expect(waiting).toMatchObject({ state: "pending", attempts: 1 });
      expect(String(waiting!.last_error)).not.toBe("");
    } finally {
      await sink.start();
    }
    sink.setDelay(1_500);
    try {
      expect(await run(new Date(at.getTime() + 60_000))).toBeNull();
    } finally {
      sink.setDelay(0);
    }
    expect(sink.messages.filter((message) => message.envelope.to.includes("fay@example.com"))).toHaveLength(1);
    const [row] = await db.query("SELECT state, attempts FROM list_mail");
    expect(row).toMatchObject({ state: "sent", attempts: 2 });
    // Nothing more goes later.
    expect(await run(new Date(at.getTime() + 3_600_000))).toBeNull();
    expect(sink.messages.filter((message) => message.envelope.to.includes("fay@example.com"))).toHaveLength(1);
  });

  it("paces by MAIL_PER_MINUTE and completes a stored id part with the sender's domain", () => {
    expect(announcementIntervalMs(60)).toBe(1_000);
    expect(announcementIntervalMs(7)).toBe(8_572);
    expect(listMessageId("list-announcement-1", "site@grimforge.example")).toBe(
      "<list-announcement-1@grimforge.example>",
    );
    expect(listMessageId("<a-1@other.example>", "site@grimforge.example")).toBe("<a-1@other.example>");
  });
});
