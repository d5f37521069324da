import type { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { spamStatsWords } from "~/wording/spam-reasons";
import { ownerDecides, spamModelStats } from "~/enquiry/spam-decisions.server";
import { inboxCopy } from "~/wording/inbox";
import { deliverySummary } from "~/owner/delivery";
import { enquiryCsv } from "~/owner/enquiry-csv";
import type { ListedEnquiry } from "~/store/records";
import { v1FileHolds } from "~/store/v1.server";
import { escapedUnsafe, visible } from "~/text/safety";
import { commandConfig, openStoreForCommand, type CommandIo } from "./command-io";
import { configuredChannels } from "../outbox-loop";
import { describePurge, purgeOld } from "../retention";
import { isOwnerCommand, ownerUsage, runOwnerCommand } from "./operators";
import { isSecretsCommand, runSecretsCommand, secretsUsage } from "./secrets";
import { dkimUsage, isDkimCommand, runDkimCommand } from "./dkim";
import { backupUsage, isBackupCommand, runBackupCommand } from "./backups";
import { isSiteCommand, runSiteCommand, siteUsage } from "./site-transfer";
import { projectAddress } from "~/enquiry/about.server";
import { plainAmount } from "~/owner/money";
import { contentFromJson, defaultSiteContent } from "~/site-content/schema.server";
import type { SiteStore } from "~/store/site-versions.types";

/**
 * `npm run inbox`: the operator's view of the embedded inbox, through the same store and DATABASE_URL as the server.
 * Output streams (a large inbox lists in constant memory) and is safe to show: visitors write these texts, so no
 * control character reaches the terminal and no CSV cell runs as a spreadsheet formula.
 */

const usage = `Usage: npm run inbox [-- [command] [options]]

Commands:
  list (default)   the stored enquiries, newest first, with their notifications
  retry            put failed notifications back to pending: the running server sends them
  erase EMAIL      delete every enquiry from EMAIL (any case) with its notifications, for good, leaving no
                   copy in the database's files: a keyed hash of the address is kept so that no import brings
                   them back; says so when the v1 file (INBOX_FILE) still holds the address; an address on
                   the waitlist is erased from it too (with its list mail), and the output says so
  mark-spam ID     the enquiry is spam: moved to the Spam folder, and the spam filter learns from it
  not-spam ID      the enquiry is real: the filter learns from it; one held as spam becomes new and the running
                   server sends its notifications
  spam stats       what the spam filter learned from your decisions: counts and the strongest words
  spam reset       forget what it learned (it judges by its built-in corpus again)
  purge            delete enquiries past RETENTION_DAYS and spam past SPAM_RETENTION_DAYS now (the server does
                   it at start and daily) and say what was deleted
${ownerUsage}${siteUsage}${secretsUsage}${dkimUsage}${backupUsage}
Options for list:
  --json           a JSON array
  --csv            CSV (RFC 4180, header row) for a spreadsheet
  --since DATE     only enquiries received on or after DATE (e.g. 2026-10-01)
  -h, --help       this help

The database is DATABASE_URL (default file:data/enquiries.db), as for the server.
`;

/** Runs the command; resolves with the exit code (0 done, 1 failed, 2 wrong usage). */
export async function runInboxCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  // The owner's inbox on the web: operators and the activity log (server/cli/operators.ts).
  if (isOwnerCommand(argv)) return runOwnerCommand(argv, io);
  // The site's published content as a file, and back (server/cli/site-transfer.ts).
  if (isSiteCommand(argv) && !argv.includes("--help") && !argv.includes("-h")) return runSiteCommand(argv, io);
  // Stored secrets sealed again under a new key (server/cli/secrets.ts).
  if (isSecretsCommand(argv) && !argv.includes("--help") && !argv.includes("-h")) return runSecretsCommand(argv, io);
  // A DKIM key pair and the DNS record to publish (server/cli/dkim.ts).
  if (isDkimCommand(argv) && !argv.includes("--help") && !argv.includes("-h")) return runDkimCommand(argv, io);
  // Backups of the SQLite database, and a restore (server/cli/backups.ts).
  if (isBackupCommand(argv) && !argv.includes("--help") && !argv.includes("-h")) return runBackupCommand(argv, io);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        json: { type: "boolean", default: false },
        csv: { type: "boolean", default: false },
        since: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      allowPositionals: true,
    });
  } catch (error) {
    return wrongUsage(io, (error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(usage);
    return 0;
  }
  const [command = "list", ...rest] = positionals;
  if (values.json && values.csv) return wrongUsage(io, "choose one of --json and --csv");
  const since = values.since === undefined ? undefined : new Date(values.since);
  if (since && Number.isNaN(since.getTime())) return wrongUsage(io, `--since: not a date: ${values.since}`);
  const takesOne = {
    erase: "one e-mail address",
    "not-spam": "one enquiry id",
    "mark-spam": "one enquiry id",
    spam: "stats or reset",
  } as Record<string, string>;
  if (takesOne[command] && rest.length !== 1) return wrongUsage(io, `${command} takes ${takesOne[command]}`);
  if (!takesOne[command] && rest.length > 0) return wrongUsage(io, `unexpected argument: ${rest[0]}`);
  if (command === "spam" && !["stats", "reset"].includes(rest[0]!)) return wrongUsage(io, "spam takes stats or reset");
  if (!["list", "retry", "erase", "not-spam", "mark-spam", "spam", "purge"].includes(command))
    return wrongUsage(io, `unknown command: ${command}`);

  const config = commandConfig(io);
  const store = await openStoreForCommand(io);
  if (!store) return 1;
  try {
    if (command === "retry") {
      const count = await store.retryFailed();
      io.stdout.write(
        `${count} failed ${count === 1 ? "notification" : "notifications"} put back to pending; the running server sends them within seconds.\n`,
      );
    } else if (command === "erase") {
      const count = await store.erase(rest[0]!);
      io.stdout.write(
        `Erased ${count} ${count === 1 ? "enquiry" : "enquiries"} from ${visible(rest[0]!)} with their notifications.\n`,
      );
      // The same person's place on the waitlist (issue 35): erased with it, the same way.
      if (await store.eraseWaitlistAddress(rest[0]!))
        io.stdout.write(`Erased ${visible(rest[0]!)} from the waitlist too, with its list mail.\n`);
      const inV1File = await v1FileHolds(config.inboxFile, rest[0]!).catch((error: Error) => {
        io.stderr.write(
          `inbox: could not read ${visible(config.inboxFile)} to check it for the address: ${error.message}\n`,
        );
        return false;
      });
      if (inV1File) io.stdout.write(`${inboxCopy.erase.stillInV1File(visible(config.inboxFile))}\n`);
    } else if (command === "not-spam" || command === "mark-spam") {
      const id = rest[0]!;
      const decision = command === "mark-spam" ? "spam" : "not-spam";
      // Recorded (and learned from once) even when the enquiry already has that status: the owner's word counts.
      const before = await ownerDecides(store, id, decision, configuredChannels(config.notify), "cli");
      if (before === null) {
        io.stderr.write(`inbox: no enquiry ${visible(id)}\n`);
        return 1;
      }
      io.stdout.write(
        decision === "spam"
          ? `Enquiry ${visible(id)} is spam: it is in the Spam folder, and the spam filter learned from it.\n`
          : before === "spam"
            ? `Enquiry ${visible(id)} is not spam: it is new now, the spam filter learned from it, and the running server sends its notifications.\n`
            : `Enquiry ${visible(id)} is not spam: the spam filter learned from it (its status stays ${before}).\n`,
      );
    } else if (command === "spam") {
      if (rest[0] === "reset") io.stdout.write(`${spamStatsWords.reset(await store.resetSpamModel())}\n`);
      else io.stdout.write(`${(await spamModelStats(store)).map(visible).join("\n")}\n`);
    } else if (command === "purge") {
      io.stdout.write(`${describePurge(await purgeOld(store, config.retention))}\n`);
      // As the server's daily purge does: the waitlist's addresses never confirmed within 7 days (docs/waitlist.md).
      const unconfirmed = await store.purgeUnconfirmedWaitlist();
      if (unconfirmed > 0)
        io.stdout.write(`Deleted ${unconfirmed} waitlist address(es) never confirmed within 7 days.\n`);
    } else {
      const format = values.json ? json : values.csv ? csv : text;
      await format(store.list({ since }), io.stdout, config.publicUrl, await publishedCurrency(store));
    }
    return 0;
  } catch (error) {
    io.stderr.write(`inbox: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await store.close();
  }
}

function wrongUsage(io: CommandIo, message: string): number {
  io.stderr.write(`inbox: ${message}\nTry 'npm run inbox -- --help'.\n`);
  return 2;
}

/** Writes and waits when the reader is slower (a pager, a pipe): memory stays flat however large the inbox. */
async function write(out: Writable, chunk: string): Promise<void> {
  if (!out.write(chunk)) await new Promise((resolve) => out.once("drain", resolve));
}

const notificationLine = (enquiry: ListedEnquiry) => deliverySummary(enquiry.notifications, "terminal");

async function text(enquiries: AsyncIterable<ListedEnquiry>, out: Writable): Promise<void> {
  let count = 0;
  for await (const enquiry of enquiries) {
    const when = `${enquiry.receivedAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;
    const oneLine = (value: string) => visible(value.replace(/\s*[\r\n]+\s*/g, " "));
    const body = visible(enquiry.message.replace(/\r\n?/g, "\n"))
      .split("\n")
      .map((line) => (line ? `    ${line}` : ""))
      .join("\n");
    const verdict = enquiry.status === "spam" ? "SPAM" : enquiry.spamVerdict === "possible" ? "POSSIBLE SPAM" : null;
    const held = verdict ? `    -- ${verdict}: ${visible(enquiry.spamReasons.join("; "))}\n` : "";
    await write(
      out,
      `${count > 0 ? "\n" : ""}${when}  ${oneLine(enquiry.name)} <${oneLine(enquiry.email)}>  [${enquiry.id}]\n${body}\n${held}    -- ${notificationLine(enquiry)}\n`,
    );
    count++;
  }
  await write(
    out,
    count === 0 ? "No enquiries yet.\n" : `\n${count} ${count === 1 ? "enquiry" : "enquiries"}, newest first.\n`,
  );
}

/** JSON escapes C0 itself; the other unsafe characters are written as \u escapes, so the data stays exact. */
const safeJson = (value: unknown) => escapedUnsafe(JSON.stringify(value, null, 2));

/** The business's currency as published (the amounts' unit); the default site's when nothing is published. */
async function publishedCurrency(store: SiteStore): Promise<string> {
  const published = await store.publishedSite();
  return (published ? contentFromJson(published.content) : defaultSiteContent).business.currency;
}

/**
 * `siteUrl`: PUBLIC_URL, for the page of the project an enquiry was sent about (its `about.url`). The pipeline's
 * fields are flat beside the enquiry's, amounts as numbers in `currency` (ADR 0043).
 */
async function json(
  enquiries: AsyncIterable<ListedEnquiry>,
  out: Writable,
  siteUrl: string,
  currency: string,
): Promise<void> {
  let first = true;
  await write(out, "[");
  for await (const enquiry of enquiries) {
    // The shape docs/inbox.md gives: a notification's sentAt is for the web inbox's timeline.
    const notifications = enquiry.notifications.map(({ channel, state, attempts, lastError, nextAttemptAt }) => ({
      channel,
      state,
      attempts,
      lastError,
      nextAttemptAt,
    }));
    const about = enquiry.about
      ? { about: { ...enquiry.about, url: projectAddress(siteUrl, enquiry.about.slug) } }
      : {};
    const { commission, ...stored } = enquiry;
    const amount = (minor: number | null) => (minor === null ? null : Number(plainAmount(minor, currency)));
    const pipeline = {
      stage: enquiry.status === "spam" ? null : commission.stage,
      lostReason: commission.lostReason,
      quoteAmount: amount(commission.quoteAmount),
      quoteValidUntil: commission.quoteValidUntil,
      depositAmount: amount(commission.depositAmount),
      currency,
      neededBy: commission.neededBy,
      service: commission.service,
    };
    const item = { ...stored, ...about, receivedAt: enquiry.receivedAt.toISOString(), notifications, ...pipeline };
    await write(out, `${first ? "\n" : ",\n"}${safeJson(item).replace(/^/gm, "  ")}`);
    first = false;
  }
  await write(out, first ? "]\n" : "\n]\n");
}

async function csv(
  enquiries: AsyncIterable<ListedEnquiry>,
  out: Writable,
  _siteUrl: string,
  currency: string,
): Promise<void> {
  for await (const line of enquiryCsv(enquiries, "terminal", currency)) await write(out, line);
}
