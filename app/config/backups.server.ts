import { dirname, join as joinPath } from "node:path";
import { z } from "zod";
import { emptyAsUnset } from "~/config/env.server";
import type { DatabaseLocation } from "~/store/store.types";

/** Backups of the SQLite inbox (BACKUP_INTERVAL, BACKUP_DIR, BACKUP_KEEP_HOURLY, BACKUP_KEEP_DAILY, BACKUP_KEY). */

const durationUnits = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `90s`, `30m`, `1h`, `2d` in milliseconds; null when it is none of these. */
export function parseDuration(value: string): number | null {
  const match = /^(\d{1,6})\s*([smhd])$/.exec(value.trim().toLowerCase());
  return match ? Number(match[1]) * durationUnits[match[2] as keyof typeof durationUnits] : null;
}

// Shorter than this and a large database would be copied again before the last copy was checked.
const minBackupIntervalMs = 10_000;

export const backupEnv = z.object({
  BACKUP_INTERVAL: z.preprocess(
    (value) => emptyAsUnset(typeof value === "string" ? value.trim().toLowerCase() : value),
    z
      .string()
      .default("1h")
      .transform((value, context) => {
        if (value === "off") return null;
        const ms = parseDuration(value);
        if (ms !== null && ms >= minBackupIntervalMs && ms <= 7 * durationUnits.d) return ms;
        context.addIssue({
          code: "custom",
          message: "must be a time from 10s to 7d such as 30m, 1h or 1d (s, m, h or d), or off",
        });
        return z.NEVER;
      }),
  ),
  BACKUP_DIR: z.preprocess(emptyAsUnset, z.string().optional()),
  BACKUP_KEEP_HOURLY: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(10_000).default(24)),
  BACKUP_KEEP_DAILY: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(3_650).default(30)),
  BACKUP_KEY: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .transform((value, context) => {
        const trimmed = value.trim();
        const key = Buffer.from(trimmed, "base64");
        // Buffer.from skips what is not base64: a value it does not give back exactly was not base64.
        if (key.length === 32 && key.toString("base64").replace(/=+$/, "") === trimmed.replace(/=+$/, "")) return key;
        context.addIssue({
          code: "custom",
          message: "must be 32 random bytes in base64 (44 characters), e.g. from: openssl rand -base64 32",
        });
        return z.NEVER;
      })
      .optional(),
  ),
});

export interface BackupConfig {
  /** How often the server takes a backup; null (BACKUP_INTERVAL=off): never by itself (the command still works). */
  intervalMs: number | null;
  /** Where backups go (BACKUP_DIR, default `backups/` beside the SQLite file); undefined on PostgreSQL. */
  dir: string | undefined;
  /** How many of the newest backups are kept, and for how many days one a day (the day's first) beyond them. */
  keepHourly: number;
  keepDaily: number;
  /** BACKUP_KEY: backups are encrypted (AES-256-GCM) with it. Never logged. */
  key: Buffer | undefined;
}

/** Where the backups go depends on the database: beside a SQLite file; none of the server's own on PostgreSQL. */
export function backupConfig(env: z.infer<typeof backupEnv>, database: DatabaseLocation): BackupConfig {
  return {
    intervalMs: env.BACKUP_INTERVAL,
    dir:
      database.kind === "sqlite" ? (env.BACKUP_DIR ?? joinPath(dirname(database.path) || ".", "backups")) : undefined,
    keepHourly: env.BACKUP_KEEP_HOURLY,
    keepDaily: env.BACKUP_KEEP_DAILY,
    key: env.BACKUP_KEY,
  };
}
