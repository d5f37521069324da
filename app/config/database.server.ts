import { z } from "zod";
import { emptyAsUnset } from "~/config/env.server";
import type { DatabaseLocation } from "~/store/store.types";

/** The embedded inbox's database (DATABASE_URL, STORE_TIMEOUT_MS) and the v1 inbox file it imports (INBOX_FILE). */

/** Where DATABASE_URL points: `file:PATH` (SQLite) or `postgres://` / `postgresql://`. */
export type { DatabaseLocation };

export function parseDatabaseUrl(value: string): DatabaseLocation | null {
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      const url = new URL(value);
      // A server to talk to: a host name, or a socket directory as ?host=
      return url.hostname || url.searchParams.get("host") ? { kind: "postgres", url: value } : null;
    } catch {
      return null;
    }
  }
  const path = value.startsWith("file:") ? value.slice("file:".length).replace(/^\/\/(?=\/)/, "") : "";
  return path ? { kind: "sqlite", path } : null;
}

/** Where the database is, for logs: never the password. */
export function describeDatabase(location: DatabaseLocation): string {
  if (location.kind === "sqlite") return `SQLite ${location.path}`;
  const url = new URL(location.url);
  return `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}`;
}

export const databaseEnv = z.object({
  DATABASE_URL: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .default("file:data/enquiries.db")
      .transform((value, context) => {
        const location = parseDatabaseUrl(value);
        if (!location)
          context.addIssue({ code: "custom", message: "must be file:PATH (SQLite) or postgres://… / postgresql://…" });
        return location ?? z.NEVER;
      }),
  ),
  STORE_TIMEOUT_MS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(100).max(60_000).default(5_000)),
  INBOX_FILE: z.preprocess(emptyAsUnset, z.string().default("data/enquiries.jsonl")),
});

export interface DatabaseConfig {
  /** The embedded inbox's database: SQLite file or PostgreSQL. */
  database: DatabaseLocation;
  /** How long a request waits for the database before the visitor is told to try again later. */
  storeTimeoutMs: number;
  /** The v1 JSON-lines inbox, imported into the database at start when it exists. */
  inboxFile: string;
}

export const databaseConfig = (env: z.infer<typeof databaseEnv>): DatabaseConfig => ({
  database: env.DATABASE_URL,
  storeTimeoutMs: env.STORE_TIMEOUT_MS,
  inboxFile: env.INBOX_FILE,
});
