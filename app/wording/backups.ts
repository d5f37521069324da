/**
 * The words about backups: the owner's notice on the Enquiries page, and `npm run inbox -- backup`, `backups` and
 * `restore FILE` (docs/operating.md#backups).
 */

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A whole number of hours (under two days) or days, with a plain message. */
export function ageWords(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  if (hours < 1) return plural(Math.max(1, Math.floor(ms / 60_000)), "minute", "minutes");
  if (hours < 48) return plural(hours, "hour", "hours");
  return plural(Math.floor(hours / 24), "day", "days");
}

export const backupCopy = {
  /** The Enquiries page's notice: calm, and what to do. */
  notice: {
    failed: (reason: string, newestAgeMs: number | null) =>
      `The last backup failed: ${reason}. ` +
      (newestAgeMs === null
        ? "No good backup can be found. "
        : `The newest good backup is ${ageWords(newestAgeMs)} old. `) +
      "The site tries again at its next backup time; ask whoever runs the server to look at it.",
    stale: (newestAgeMs: number) =>
      `The last backup is ${ageWords(newestAgeMs)} old. Ask whoever runs the server to check that backups are running.`,
    none: "There is no backup of the inbox yet. Ask whoever runs the server to check that backups are running.",
  },
  usage: `  backup                        take a backup of the database now (SQLite) into BACKUP_DIR, checked,
                                encrypted with BACKUP_KEY when it is set; older ones rotated
  backups                       the backups in BACKUP_DIR, newest first: time, size and what each holds
                                (each one checked: a damaged one, or one made with another key, says so)
  restore FILE                  check FILE and put it in place of the database; the current database is
                                kept aside. Stop the server first: refused while it runs
`,
  postgres:
    "The inbox is on PostgreSQL: back it up with pg_dump (and restore with pg_restore), as docs/operating.md#backups " +
    "shows. The site's own backups are for SQLite.",
  taken: (name: string, bytes: number, counts: string, removed: number) =>
    `Backup ${name} taken (${bytes} bytes; ${counts}).` +
    (removed > 0 ? ` Rotation removed ${plural(removed, "older backup", "older backups")}.` : ""),
  failed: (reason: string) => `The backup failed: ${reason}. Older backups are untouched.`,
  noneYet: (dir: string) => `No backups in ${dir} yet. Take one with: npm run inbox -- backup`,
  listed: (count: number, dir: string) => `${plural(count, "backup", "backups")} in ${dir}, newest first.`,
  unreadableDir: (dir: string, reason: string) => `cannot read the backup directory ${dir}: ${reason}`,
  counts: (counts: { enquiries: number | null; siteVersions: number | null; photos: number | null }) =>
    [
      counts.enquiries === null ? null : plural(counts.enquiries, "enquiry", "enquiries"),
      counts.siteVersions === null ? null : plural(counts.siteVersions, "site version", "site versions"),
      counts.photos === null ? null : plural(counts.photos, "photo", "photos"),
    ]
      .filter(Boolean)
      .join(", ") || "no inbox tables",
  restored: (file: string, counts: string, aside: string | null) =>
    `Restored ${file} (${counts}).` +
    (aside ? ` The database it replaced is kept as ${aside}.` : "") +
    " Start the server again.",
  refused: (reason: string) => `Nothing was restored: ${reason}.`,
} as const;
