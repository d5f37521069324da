import { describe, expect, it } from "vitest";
import { backupFileName, backupTime } from "~/store/backup-files.server";
import { backupsToKeep } from "~/store/backup-rotation.server";

const now = new Date("2026-11-26T12:00:00Z");
const hour = 3_600_000;
const named = (at: Date) => ({ name: backupFileName("/data/enquiries.db", at, false), takenAt: at });

describe("backup names", () => {
  it("sort by time and give the time back", () => {
    const at = new Date("2026-11-26T11:00:00.456Z");
    expect(backupFileName("/data/enquiries.db", at, false)).toBe("enquiries-2026-11-26T11-00-00.456Z.db");
    expect(backupFileName("/data/enquiries.db", at, true)).toBe("enquiries-2026-11-26T11-00-00.456Z.db.enc");
    expect(backupTime("enquiries-2026-11-26T11-00-00.456Z.db.enc")).toEqual(at);
    // Two backups within one second keep two names (a rename onto the first would replace it).
    const soon = new Date(at.getTime() + 1);
    expect(backupFileName("/data/enquiries.db", soon, false)).not.toBe(backupFileName("/data/enquiries.db", at, false));
    expect(backupTime("enquiries.db")).toBeNull();
    expect(backupTime("enquiries-2026-13-26T11-00-00.000Z.db")).toBeNull();
  });
});

describe("rotation", () => {
  it("keeps the newest BACKUP_KEEP_HOURLY and the first of each of the last BACKUP_KEEP_DAILY days", () => {
    const backups = Array.from({ length: 24 * 40 }, (_, h) => named(new Date(now.getTime() - h * hour)));
    const kept = backupsToKeep(backups, { keepHourly: 24, keepDaily: 30 }, now);
    const newest24 = backups.slice(0, 24).map((backup) => backup.name);
    for (const name of newest24) expect(kept.has(name)).toBe(true);
    const daily = [...kept].filter((name) => !newest24.includes(name)).sort();
    // Today's and yesterday's first (00:00) are among the newest 24 or daily; 30 days in all, each at midnight.
    const days = new Set([...kept].map((name) => name.slice(10, 20)));
    expect(days.size).toBe(30);
    for (const name of daily) expect(name).toMatch(/T00-00-00\.000Z\.db$/);
    expect(kept.size).toBe(24 + daily.length);
    expect([...days].sort()[0]).toBe("2026-10-28");
  });

  it("keeps everything it is given when there are fewer than the limits, and only the newest with no daily", () => {
    const few = [named(now), named(new Date(now.getTime() - 5 * 24 * hour))];
    expect(backupsToKeep(few, { keepHourly: 24, keepDaily: 30 }, now).size).toBe(2);
    expect([...backupsToKeep(few, { keepHourly: 1, keepDaily: 0 }, now)]).toEqual([few[0]!.name]);
  });
});
