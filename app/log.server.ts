import { AsyncLocalStorage } from "node:async_hooks";
import { pino, type Logger } from "pino";

/**
 * The process's one logger (ADR 0036): pino, writing either one JSON object per line on stdout (LOG_FORMAT=json: level,
 * time, msg, the request's `reqId` and the line's own fields) or the human lines operators and the docs know
 * (LOG_FORMAT=text: "[server] http://…", "inbox: …", the enquiry and notification JSON lines as before). The request
 * id rides an AsyncLocalStorage, so every line a request causes carries it without being handed it.
 *
 * No line may hold a visitor's e-mail address, message text or a query string: callers log ids, outcomes and counts.
 */

export type LogFormat = "json" | "text";
export const logFormats = ["json", "text"] as const;
type Level = "info" | "warn" | "error";
type Fields = Record<string, unknown>;

/** Text under a terminal (a person reads it), JSON otherwise (a collector reads it). */
export function defaultLogFormat(stdoutIsTTY = Boolean(process.stdout.isTTY)): LogFormat {
  return stdoutIsTTY ? "text" : "json";
}

interface LogState {
  requests: AsyncLocalStorage<{ reqId: string }>;
  format: LogFormat;
  logger?: Logger;
}

// Shared through globalThis, not module state: this module is bundled twice (into the Remix build and into
// build/server/), and both copies must see the one format and the one request context.
const stateKey = Symbol.for("haunt-site.log");
const state: LogState = ((globalThis as { [stateKey]?: LogState })[stateKey] ??= {
  requests: new AsyncLocalStorage(),
  format: defaultLogFormat(),
});

/** Set once at start from LOG_FORMAT (server/environment.ts); lines before that use the default. */
export function setLogFormat(format: LogFormat): void {
  if (state.format === format && state.logger) return;
  state.format = format;
  state.logger = undefined;
}

/** Runs `fn` as part of request `reqId`: every line it causes, now or after an await, carries that id. */
export function withRequestId<T>(reqId: string, fn: () => T): T {
  return state.requests.run({ reqId }, fn);
}

/** The id of the request this code runs for, if any (stored with an enquiry's notifications). */
export function currentRequestId(): string | undefined {
  return state.requests.getStore()?.reqId;
}

/**
 * A text line for one JSON record: today's human line. An event record (enquiry, notification, digest, login alert)
 * stays the JSON line it always was (tests and collectors parse it); anything else is its message, with an error's
 * stack below it. Warnings and errors go to stderr, as console.warn/error sent them.
 */
export function formatText(record: Fields): { line: string; stderr: boolean } {
  const { level, time, msg, err, ...fields } = record;
  const stderr = level === "warn" || level === "error" || level === "fatal";
  if (typeof fields.event === "string") {
    const { event, reqId, ...rest } = fields;
    return { line: JSON.stringify({ time, event, ...rest, ...(reqId === undefined ? {} : { reqId }) }), stderr };
  }
  const stack = err && typeof err === "object" && "stack" in err ? String((err as { stack: unknown }).stack) : "";
  const line = [typeof msg === "string" ? msg : "", stack].filter(Boolean).join("\n");
  return { line, stderr };
}

/**
 * Where text-format lines go: pino hands each record as one JSON string. Through the console, as these lines always
 * went (tests that run the app in their own process read them there).
 */
const textDestination = {
  write(chunk: string) {
    for (const json of chunk.split("\n")) {
      if (!json) continue;
      const { line, stderr } = formatText(JSON.parse(json) as Fields);
      /* eslint-disable no-console -- the one place lines reach the console */
      if (stderr) console.error(line);
      else console.log(line);
      /* eslint-enable no-console */
    }
  },
};

function logger(): Logger {
  if (state.logger) return state.logger;
  const options = {
    base: null,
    messageKey: "msg",
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    // A field given with the line (the outbox's stored reqId) wins over the running request's.
    mixin: () => {
      const reqId = currentRequestId();
      return reqId ? { reqId } : {};
    },
  };
  // Synchronous writes: a line logged just before process.exit (a bad start, the end of a shutdown) is not lost.
  state.logger =
    state.format === "json" ? pino(options, pino.destination({ dest: 1, sync: true })) : pino(options, textDestination);
  return state.logger;
}

function write(level: Level, msg: string, fields?: Fields): void {
  const { error, ...rest } = fields ?? {};
  // pino's `err` serializer keeps an Error's type, message and stack (JSON.stringify would give {}).
  const merged = error === undefined ? rest : { ...rest, err: error instanceof Error ? error : { message: error } };
  logger()[level](merged, msg);
}

/** The operator's log: `msg` in today's words ("inbox: …", "[server] …"), `fields` for the JSON format only. */
export const log = {
  info: (msg: string, fields?: Fields) => write("info", msg, fields),
  warn: (msg: string, fields?: Fields) => write("warn", msg, fields),
  error: (msg: string, fields?: Fields) => write("error", msg, fields),
  /**
   * One structured line about an event (an enquiry attempt, a notification's outcome, …): in text as the JSON line
   * it always was, `{"time":…,"event":…,…}`.
   */
  event(event: string, entry: Fields, level: Level = "info") {
    const outcome = typeof entry.outcome === "string" ? ` ${entry.outcome}` : "";
    logger()[level]({ event, ...entry }, `${event}${outcome}`);
  },
};
