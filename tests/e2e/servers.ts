import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileCacheEnv } from "../support/compile-cache.mjs";

/**
 * The servers the end-to-end tests start: the fake upstream API, the site proxying to it (short timeout so the
 * timeout test is quick), the site in embedded mode (no API_HOST) with its own inbox file, and the site pointed at
 * a port where nothing listens. E2E_PORT_BASE moves them all; unset, a free block is found.
 */
/**
 * The block of ports the end-to-end tests use: base to base + 60. Fixed: +1 to +8 and +10 (below; +3/+4 the rate
 * limited ones, one per project), +20/+21 (the disk test's own servers), +23/+24 (the Site editor's, one per project),
 * +25/+26 (the Photos page's), +27/+28 (the Security page's one-time codes, one per project), +29 (passkeys), +30 (the
 * sessions and the erase step-up), +31/+32 (the public Work pages', one per project), +33/+34 (the owner's Work pages'), +35 to +38 (replying from the inbox: two servers, two SMTP servers);
 * the photo servers take +40 to +59; +60 the launcher's ready signal; +61/+62 the owner's Waitlist page's, one per
 * project; +63 to +66 "Tell me when orders open" (two servers, two SMTP servers). Playwright starts the servers every
 * file uses (playwright.config.ts); most servers only one file uses are started by that file (tests/e2e/file-server.ts).
 */
const portCount = 67;

/**
 * E2E_PORT_BASE, or a free block found now: the runner evaluates this first and sets the variable, and the workers it
 * starts inherit it, so that all of them agree on the ports. Never a fixed default: a developer's own server on one of
 * the ports would stop the run.
 */
function portBase(): number {
  if (!process.env.E2E_PORT_BASE) {
    const found = spawnSync(
      process.execPath,
      [join(import.meta.dirname, "../support/free-port-range.mjs"), String(portCount)],
      {
        encoding: "utf8",
      },
    );
    if (found.status !== 0) throw new Error(`no free ports for the end-to-end servers: ${found.stderr}`);
    process.env.E2E_PORT_BASE = found.stdout.trim();
  }
  return Number(process.env.E2E_PORT_BASE);
}

export const e2ePortBase = portBase();
const base = e2ePortBase;
const url = (port: number) => `http://127.0.0.1:${port}`;

const upstreamPort = base + 10;
/**
 * Everything the run's servers write: their databases, the files the specs write for them, and each server's TMPDIR
 * (uploads being received, clips being encoded, the media cache). The launcher (tests/e2e/start-servers.mjs) empties it
 * when it starts and removes it once its servers have stopped; the run's setup removes those a killed run left.
 */
export const e2eDataDir = join(tmpdir(), `haunt-e2e-inbox-${base}`);
const dataDir = e2eDataDir;
/** The embedded servers' SQLite files: the tests read them (and hold their locks) directly. */
export const embeddedDatabase = join(dataDir, "enquiries.db");
export const stuckDatabase = join(dataDir, "stuck.db");
export const ownerDatabase = join(dataDir, "owner.db");
export const ownerAtDefaultDatabase = join(dataDir, "owner-default.db");
/** The Site page's servers: one per project, as the site's content is one per database (tests/e2e/site-editor.spec.ts). */
export const siteEditorDatabases = {
  js: join(dataDir, "site-editor-js.db"),
  noJs: join(dataDir, "site-editor-no-js.db"),
};
/** The Photos page's servers, one per project (tests/e2e/photo-owner.spec.ts). */
export const photosOwnerDatabases = {
  js: join(dataDir, "photos-owner-js.db"),
  noJs: join(dataDir, "photos-owner-no-js.db"),
};
/** The owner's Work pages' servers, one per project (tests/e2e/work-owner.spec.ts). */
export const workOwnerDatabases = {
  js: join(dataDir, "work-owner-js.db"),
  noJs: join(dataDir, "work-owner-no-js.db"),
};
/** The Security page's one-time codes servers, one per project (tests/e2e/security-codes.spec.ts). */
export const securityCodesDatabases = {
  js: join(dataDir, "security-codes-js.db"),
  noJs: join(dataDir, "security-codes-no-js.db"),
};
/** The owner's Waitlist page's servers, one per project (tests/e2e/waitlist-owner.spec.ts). */
export const waitlistOwnerDatabases = {
  js: join(dataDir, "waitlist-owner-js.db"),
  noJs: join(dataDir, "waitlist-owner-no-js.db"),
};
/** The Security page's sessions and step-up on erase (tests/e2e/security-sessions.spec.ts): the factor required. */
export const securitySessionsDatabase = join(dataDir, "security-sessions.db");
// The tests post many enquiries on purpose: the rate limits are off except on the server that tests them.
const noRateLimits = {
  RATE_LIMIT_SITE_PER_MINUTE: "0",
  RATE_LIMIT_CLIENT_PER_HOUR: "0",
  RATE_LIMIT_LOGIN_PER_MINUTE: "0",
};
// The embedded servers' tests post within a second of loading the form and are about something else: the spam filter
// is off on them; the spam server has it on (tests/e2e/spam.spec.ts).
const spamFilterOff = { SPAM_FILTER: "off" };
// The owner's tests that are not about the second factor log in with the password alone: each such server says so
// (the default requires a factor; the security servers below keep it).
const secondFactorOff = { INBOX_REQUIRE_2FA: "off" };
/** The spam server's SQLite file. */
export const spamDatabase = join(dataDir, "spam.db");
export const upstreamTimeoutMs = 1500;

function siteEditorServer(port: number, database: string) {
  return {
    port,
    url: url(port),
    env: {
      API_HOST: "",
      DATABASE_URL: `file:${database}`,
      INBOX_FILE: `${database}.jsonl`,
      PUBLIC_URL: url(port),
      TRUST_PROXY: "1",
      ...noRateLimits,
      ...spamFilterOff,
      ...secondFactorOff,
    },
  };
}

/**
 * The Security page's one-time codes: the second factor at its default (required), behind one trusted proxy like the
 * owner server, so that each test is its own client address for the login and code throttles.
 */
function securityCodesServer(port: number, database: string) {
  return {
    port,
    url: url(port),
    env: {
      API_HOST: "",
      DATABASE_URL: `file:${database}`,
      INBOX_FILE: `${database}.jsonl`,
      PUBLIC_URL: url(port),
      TRUST_PROXY: "1",
      ...noRateLimits,
      ...spamFilterOff,
    },
  };
}

/**
 * The owner's Waitlist page (tests/e2e/waitlist-owner.spec.ts): the second factor required (its CSV and Send are behind
 * step-up) and e-mail set up (the announcement is offered only then), to a port where nothing listens: the list's
 * sending is tested in tests/integration, the page here.
 */
function waitlistOwnerServer(port: number, database: string) {
  return {
    port,
    url: url(port),
    env: {
      API_HOST: "",
      DATABASE_URL: `file:${database}`,
      INBOX_FILE: `${database}.jsonl`,
      PUBLIC_URL: url(port),
      TRUST_PROXY: "1",
      SMTP_URL: "smtp://127.0.0.1:9",
      NOTIFY_EMAIL_TO: "owner@grimforge.example",
      NOTIFY_EMAIL_FROM: "site@grimforge.example",
      ...noRateLimits,
      ...spamFilterOff,
    },
  };
}

/** Replying from the inbox (tests/e2e/replies.spec.ts): e-mail set up, to the SMTP server the spec starts on smtpPort. */
function repliesServer(port: number, smtpPort: number, database: string) {
  return {
    port,
    url: url(port),
    smtpPort,
    env: {
      API_HOST: "",
      DATABASE_URL: `file:${database}`,
      INBOX_FILE: `${database}.jsonl`,
      PUBLIC_URL: url(port),
      TRUST_PROXY: "1",
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      NOTIFY_EMAIL_TO: "owner@grimforge.example",
      NOTIFY_EMAIL_FROM: "site@grimforge.example",
      ...noRateLimits,
      ...spamFilterOff,
      ...secondFactorOff,
    },
  };
}

/**
 * "Tell me when orders open" (tests/e2e/waitlist.spec.ts): e-mail set up, to the SMTP server the spec starts on
 * smtpPort, the spam filter on (the form's token and its 3-second minimum, as a visitor meets them).
 */
function waitlistServer(port: number, smtpPort: number, database: string) {
  return {
    port,
    url: url(port),
    smtpPort,
    database,
    env: {
      API_HOST: "",
      DATABASE_URL: `file:${database}`,
      INBOX_FILE: `${database}.jsonl`,
      PUBLIC_URL: url(port),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      NOTIFY_EMAIL_TO: "owner@grimforge.example",
      NOTIFY_EMAIL_FROM: "site@grimforge.example",
      SPAM_FILTER: "on",
      ...noRateLimits,
    },
  };
}

function limitedServer(port: number) {
  return {
    port,
    url: url(port),
    env: {
      API_HOST: url(upstreamPort),
      TRUST_PROXY: "1",
      RATE_LIMIT_SITE_PER_MINUTE: "0",
      RATE_LIMIT_CLIENT_PER_HOUR: "1",
    },
  };
}

export const e2eServers = {
  /** tests/e2e/start-servers.mjs answers here once every shared server does. */
  launcherPort: base + 60,
  upstream: { port: upstreamPort, url: url(upstreamPort) },
  site: {
    port: base,
    url: url(base),
    // PUBLIC_URL: the address the tests use is the one robots.txt, the sitemap and canonical links name.
    env: {
      API_HOST: url(upstreamPort),
      API_TIMEOUT_MS: String(upstreamTimeoutMs),
      PUBLIC_URL: url(base),
      ...noRateLimits,
    },
  },
  embedded: {
    port: base + 1,
    url: url(base + 1),
    env: {
      API_HOST: "",
      DATABASE_URL: `file:${embeddedDatabase}`,
      ...noRateLimits,
      ...spamFilterOff,
      ...secondFactorOff,
    },
  },
  // Embedded too, on a database the tests lock to make it stop answering; it gives up waiting after a second.
  stuck: {
    port: base + 5,
    url: url(base + 5),
    env: {
      API_HOST: "",
      DATABASE_URL: `file:${stuckDatabase}`,
      STORE_TIMEOUT_MS: "1000",
      ...noRateLimits,
      ...spamFilterOff,
      ...secondFactorOff,
    },
  },
  // Embedded with the spam filter on (the default): the spam tests.
  spam: {
    port: base + 7,
    url: url(base + 7),
    env: {
      API_HOST: "",
      DATABASE_URL: `file:${spamDatabase}`,
      INBOX_FILE: join(dataDir, "spam.jsonl"),
      PUBLIC_URL: url(base + 7),
      ...noRateLimits,
      ...secondFactorOff,
    },
  },
  // Port 9 (discard) has no listener here: every forward is refused.
  refused: {
    port: base + 2,
    url: url(base + 2),
    env: { API_HOST: "http://127.0.0.1:9", API_TIMEOUT_MS: "3000", ...noRateLimits },
  },
  // The owner's inbox (/inbox): embedded, PUBLIC_URL naming 127.0.0.1 (tests/e2e/owner-address.spec.ts opens it at
  // localhost too), behind one trusted proxy so that each test is its own client address for the login throttle. The spam filter
  // is off: these tests post through the form at once and need the enquiry in New (the spam server tests the filter).
  owner: {
    port: base + 6,
    url: url(base + 6),
    env: {
      API_HOST: "",
      DATABASE_URL: `file:${ownerDatabase}`,
      PUBLIC_URL: url(base + 6),
      TRUST_PROXY: "1",
      ...noRateLimits,
      ...spamFilterOff,
      ...secondFactorOff,
    },
  },
  // The owner's inbox with PUBLIC_URL left at its default (http://localhost:PORT), opened at the address the server
  // prints (http://127.0.0.1:PORT): the login must work there (tests/e2e/owner-address.spec.ts).
  ownerAtDefault: {
    port: base + 8,
    url: url(base + 8),
    env: {
      API_HOST: "",
      DATABASE_URL: `file:${ownerAtDefaultDatabase}`,
      INBOX_FILE: join(dataDir, "owner-default.jsonl"),
      TRUST_PROXY: "1",
      ...noRateLimits,
      ...spamFilterOff,
      ...secondFactorOff,
    },
  },
  // The owner's Site page: what one server publishes every page of it shows, so each project edits its own server
  // (tests/e2e/site-editor.spec.ts runs its tests in order on it).
  siteEditorJs: siteEditorServer(base + 23, siteEditorDatabases.js),
  siteEditorNoJs: siteEditorServer(base + 24, siteEditorDatabases.noJs),
  // The owner's Photos page: it publishes too, so it has a server per project of its own
  // (tests/e2e/photo-owner.spec.ts runs its tests in order on it).
  photosOwnerJs: siteEditorServer(base + 25, photosOwnerDatabases.js),
  photosOwnerNoJs: siteEditorServer(base + 26, photosOwnerDatabases.noJs),
  // The owner's Work pages: they publish too (tests/e2e/work-owner.spec.ts runs its tests in order on them).
  workOwnerJs: siteEditorServer(base + 33, workOwnerDatabases.js),
  workOwnerNoJs: siteEditorServer(base + 34, workOwnerDatabases.noJs),
  // Replying from the inbox: one server per project (+35/+36), each with its SMTP server (+37/+38).
  repliesJs: repliesServer(base + 35, base + 37, join(dataDir, "replies-js.db")),
  repliesNoJs: repliesServer(base + 36, base + 38, join(dataDir, "replies-no-js.db")),
  // The owner's Waitlist page: one server per project (each announces its season once).
  waitlistOwnerJs: waitlistOwnerServer(base + 61, waitlistOwnerDatabases.js),
  waitlistOwnerNoJs: waitlistOwnerServer(base + 62, waitlistOwnerDatabases.noJs),
  // "Tell me when orders open": one server per project (+63/+64), each with its SMTP server (+65/+66).
  waitlistJs: waitlistServer(base + 63, base + 65, join(dataDir, "waitlist-js.db")),
  waitlistNoJs: waitlistServer(base + 64, base + 66, join(dataDir, "waitlist-no-js.db")),
  // The Security page's one-time codes, with the second factor required (the default): one server per project.
  securityCodesJs: securityCodesServer(base + 27, securityCodesDatabases.js),
  securityCodesNoJs: securityCodesServer(base + 28, securityCodesDatabases.noJs),
  // The Security page's sessions and the erase's step-up, the second factor required (the default), both projects.
  securitySessions: {
    port: base + 30,
    url: url(base + 30),
    env: {
      API_HOST: "",
      DATABASE_URL: `file:${securitySessionsDatabase}`,
      INBOX_FILE: join(dataDir, "security-sessions.jsonl"),
      PUBLIC_URL: url(base + 30),
      TRUST_PROXY: "1",
      ...noRateLimits,
      ...spamFilterOff,
    },
  },
  // Passkeys (tests/e2e/passkeys.spec.ts): a browser refuses an IP address as the relying party, so PUBLIC_URL names
  // localhost and the tests open the site there; the second factor at its default (required).
  passkeys: {
    port: base + 29,
    url: url(base + 29),
    localUrl: `http://localhost:${base + 29}`,
    env: {
      API_HOST: "",
      DATABASE_URL: `file:${join(dataDir, "passkeys.db")}`,
      INBOX_FILE: join(dataDir, "passkeys.jsonl"),
      PUBLIC_URL: `http://localhost:${base + 29}`,
      TRUST_PROXY: "1",
      ...noRateLimits,
      ...spamFilterOff,
    },
  },
  // Rate limited per client, behind one trusted proxy: each test claims its own X-Forwarded-For address. One per
  // project, started by tests/e2e/rate-limit.spec.ts for its test alone.
  limitedJs: limitedServer(base + 3),
  limitedNoJs: limitedServer(base + 4),
};

// Each server's TMPDIR in the run's folder (its starter makes it): nothing a server leaves in the system's temp folder.
for (const server of Object.values(e2eServers))
  if (typeof server === "object" && "env" in server)
    Object.assign(server.env, { TMPDIR: join(dataDir, "tmp", String(server.port)), ...compileCacheEnv });
