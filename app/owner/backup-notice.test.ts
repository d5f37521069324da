import { describe, expect, it } from "vitest";
import { backupNotice } from "~/owner/backup-notice";
import type { BackupStatus } from "~/site-services.server";

const hour = 3_600_000;
const now = new Date("2026-11-26T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const status = (overrides: Partial<BackupStatus>): BackupStatus => ({
  intervalMs: hour,
  lastAttemptAt: ago(10 * 60_000),
  ok: true,
  error: null,
  lastSuccessAt: ago(10 * 60_000),
  newestBackupAt: ago(10 * 60_000),
  newestBackupAgeMs: 10 * 60_000,
  ...overrides,
});

describe("the Enquiries page's backup notice", () => {
  it("says nothing while backups are fresh, or when the server takes none", () => {
    expect(backupNotice(status({}), now)).toBeNull();
    expect(backupNotice(status({ newestBackupAt: ago(2 * hour) }), now)).toBeNull();
    expect(backupNotice(null, now)).toBeNull();
    expect(backupNotice(undefined, now)).toBeNull();
    // Before the first attempt there is nothing to say yet.
    expect(backupNotice(status({ lastAttemptAt: null, ok: null, newestBackupAt: null }), now)).toBeNull();
  });

  it("says how old the last backup is once it is older than twice the interval", () => {
    expect(backupNotice(status({ newestBackupAt: ago(26 * hour) }), now)).toBe(
      "The last backup is 26 hours old. Ask whoever runs the server to check that backups are running.",
    );
    expect(backupNotice(status({ newestBackupAt: ago(3 * 24 * hour) }), now)).toMatch(/^The last backup is 3 days old/);
    expect(backupNotice(status({ newestBackupAt: null }), now)).toMatch(/^There is no backup of the inbox yet/);
  });

  it("says why the last one failed and how old the newest good one is", () => {
    expect(backupNotice(status({ ok: false, error: "the disk is full", newestBackupAt: ago(26 * hour) }), now)).toBe(
      "The last backup failed: the disk is full. The newest good backup is 26 hours old. The site tries again at its " +
        "next backup time; ask whoever runs the server to look at it.",
    );
    expect(backupNotice(status({ ok: false, error: "the disk is full", newestBackupAt: null }), now)).toMatch(
      /No good backup can be found\./,
    );
  });
});
