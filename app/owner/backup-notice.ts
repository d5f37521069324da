import { backupCopy } from "~/wording/backups";
import type { BackupStatus } from "~/site-services.server";

/**
 * What the Enquiries page says about backups, or null when all is well: the last attempt failed, or the newest good
 * backup is older than twice the interval (or there is none once the first attempt has run).
 */
export function backupNotice(status: BackupStatus | null | undefined, now: Date): string | null {
  if (!status) return null;
  const age = status.newestBackupAt ? Math.max(0, now.getTime() - status.newestBackupAt.getTime()) : null;
  if (status.ok === false) return backupCopy.notice.failed(status.error ?? "an unknown error", age);
  if (age === null) return status.lastAttemptAt ? backupCopy.notice.none : null;
  return age > 2 * status.intervalMs ? backupCopy.notice.stale(age) : null;
}
