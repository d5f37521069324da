// The embedded inbox under load: enquiries per second through the form into SQLite and into PostgreSQL, side by side
// in one run, and the notification e-mails delivered to a local SMTP server, with "nothing lost" checked:
// every post the site acknowledged (303) is stored once and e-mailed once.
import { DatabaseSync } from "node:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { startPostgres } from "../../tests/support/postgres.ts";
import { contactPosts } from "./servers.mjs";
import { loadPhase } from "./load.mjs";
import { memory, sleep, stopChild } from "./proc.mjs";

/** A real SMTP server on 127.0.0.1 that records the enquiry id (X-Enquiry-Id) of every message it accepts. */
async function startSmtpSink() {
  const received = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      let text = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk) => (text += chunk));
      stream.on("end", () => {
        received.push(/^X-Enquiry-Id: *(.*?)\r?$/im.exec(text)?.[1] ?? "");
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address();
  return {
    url: `smtp://127.0.0.1:${port}`,
    count: () => received.length,
    /** Enquiry ids e-mailed more than once (or messages without one) among the messages from index `from` on. */
    duplicatesSince: (from) => {
      const ids = received.slice(from);
      return ids.length - new Set(ids.filter(Boolean)).size;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Counts in the inbox database itself: enquiries stored and notifications sent. */
async function countStored(databaseUrl) {
  if (databaseUrl.startsWith("file:")) {
    const db = new DatabaseSync(databaseUrl.slice("file:".length), { readOnly: true });
    try {
      const enquiries = Number(db.prepare("SELECT COUNT(*) AS n FROM enquiries").get().n);
      const sent = Number(db.prepare("SELECT COUNT(*) AS n FROM notifications WHERE state = 'sent'").get().n);
      return { enquiries, sent };
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const enquiries = Number((await client.query("SELECT COUNT(*) AS n FROM enquiries")).rows[0].n);
    const sent = Number((await client.query("SELECT COUNT(*) AS n FROM notifications WHERE state = 'sent'")).rows[0].n);
    return { enquiries, sent };
  } finally {
    await client.end();
  }
}

/** Posts `amount` distinct enquiries with `connections` posters, then waits for their e-mails. */
async function inboxPhase({ label, databaseUrl, smtp, startSite, options, log }) {
  const site = await startSite({
    label: `inbox-${label}`,
    env: {
      API_HOST: "",
      DATABASE_URL: databaseUrl,
      SMTP_URL: smtp.url,
      NOTIFY_EMAIL_FROM: "Bench <bench@haunt.example>",
      NOTIFY_EMAIL_TO: "owner@haunt.example",
      RATE_LIMIT_SITE_PER_MINUTE: "0",
      RATE_LIMIT_CLIENT_PER_HOUR: "0",
      // The bench posts without loading the form (no form token): it measures the inbox, not the spam filter.
      SPAM_FILTER: "off",
    },
  });
  try {
    const before = smtp.count();
    const run = `${label}-${process.pid}-${Date.now()}`;
    const amount = options.quick ? 300 : 1500;
    log(
      `POST /contact into ${label}: ${amount} enquiries from ${options.connections} posters, with e-mail notifications`,
    );
    const started = performance.now();
    const result = await loadPhase({
      name: `POST /contact -> ${label}`,
      url: `${site.origin}/contact`,
      pid: site.pid,
      connections: options.connections,
      durationS: 30,
      amount,
      options: contactPosts((n) => ({
        name: `Bench Visitor ${n}`,
        email: `bench-${run}-${n}@example.com`,
        message: `Enquiry ${n} of run ${run}: a six-foot pneumatic drop scare for a barn haunt, please.`,
      })),
    });
    const acknowledged = result.statusCodes["303"] ?? 0;
    // Wait until every acknowledged enquiry's e-mail has arrived (or three minutes have passed: then something is lost).
    // The sender keeps at most two sends in flight per destination (issue 18), so 1,500 e-mails take a minute or more.
    const deadline = Date.now() + 180_000;
    while (smtp.count() - before < acknowledged && Date.now() < deadline) await sleep(100);
    const deliveredS = (performance.now() - started) / 1000;
    await sleep(500); // a duplicate would arrive now
    const stored = await countStored(databaseUrl);
    const emailed = smtp.count() - before;
    const duplicatesEmailed = smtp.duplicatesSince(before);
    return {
      backend: label,
      posters: options.connections,
      acknowledged,
      otherStatuses: Object.fromEntries(Object.entries(result.statusCodes).filter(([code]) => code !== "303")),
      stored: stored.enquiries,
      notificationsSent: stored.sent,
      emailed,
      duplicatesEmailed,
      enquiriesPerSec: acknowledged / result.durationS,
      notificationsPerSec: emailed / deliveredS,
      serverCpuMsPerEnquiry: result.serverCpuMsPerRequest,
      latencyMs: result.latencyMs,
      peakMemory: memory(site.pid),
      nothingLost:
        acknowledged === amount &&
        stored.enquiries === acknowledged &&
        emailed === acknowledged &&
        duplicatesEmailed === 0,
    };
  } finally {
    await stopChild(site.child);
  }
}

/** SQLite and PostgreSQL, one after the other in the same run, each into a fresh database. */
export async function inboxPhases({ startSite, options, log }) {
  const smtp = await startSmtpSink();
  const dir = mkdtempSync(join(tmpdir(), "haunt-bench-inbox-"));
  let postgres;
  try {
    const results = [
      await inboxPhase({
        label: "SQLite",
        databaseUrl: `file:${join(dir, "bench.db")}`,
        smtp,
        startSite,
        options,
        log,
      }),
    ];
    try {
      postgres = await startPostgres();
    } catch (error) {
      log(`PostgreSQL phase skipped: ${error.message.split("\n")[0]}`);
      return results;
    }
    const databaseUrl = await postgres.createDatabase("bench");
    results.push(await inboxPhase({ label: "PostgreSQL", databaseUrl, smtp, startSite, options, log }));
    return results;
  } finally {
    postgres?.stop();
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
