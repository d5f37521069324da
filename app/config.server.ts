import { z } from "zod";
import { backupConfig, backupEnv, type BackupConfig } from "~/config/backups.server";
import { dkimEnv, readDkim, type DkimConfig } from "~/config/dkim.server";
import { databaseConfig, databaseEnv, type DatabaseConfig } from "~/config/database.server";
import { enquiriesConfig, enquiriesEnv, type EnquiriesConfig } from "~/config/enquiries.server";
import { notifyConfig, notifyEnv, notifyProblems, type NotifyConfig } from "~/config/notify.server";
import { ownerConfig, ownerEnv, type OwnerConfig } from "~/config/owner.server";
import { photosConfig, photosEnv, type PhotosConfig } from "~/config/photos.server";
import { remindersConfig, remindersEnv, type ReminderClock } from "~/config/reminders.server";
import { servingConfig, servingEnv, servingProblems, type ServingConfig } from "~/config/serving.server";
import {
  spamConfig,
  spamEnv,
  type RetentionConfig,
  type SpamConfig,
  type SpamDigestConfig,
} from "~/config/spam.server";

/**
 * The environment, checked once at start (server/environment.ts reads it): every variable the site and `npm run inbox` use,
 * each validated by the part of the configuration it belongs to (app/config/, one schema each, with its defaults).
 * An invalid value stops the start with a message that names the variable, rather than failing on the first enquiry;
 * every bad variable is named at once.
 */
export { describeDatabase, parseDatabaseUrl, type DatabaseLocation } from "~/config/database.server";
export { parseDuration, type BackupConfig } from "~/config/backups.server";
export { webhookFormats, type EmailChannelConfig, type NotifyConfig, type WebhookFormat } from "~/config/notify.server";
export { dkimWarnings, type DkimConfig } from "~/config/dkim.server";
export { defaultReminderHour, type ReminderClock } from "~/config/reminders.server";
export { defaultRetention, type RetentionConfig, type SpamConfig, type SpamDigestConfig } from "~/config/spam.server";

const envSchema = z.object({
  ...servingEnv.shape,
  ...enquiriesEnv.shape,
  ...databaseEnv.shape,
  ...photosEnv.shape,
  ...ownerEnv.shape,
  ...notifyEnv.shape,
  ...dkimEnv.shape,
  ...spamEnv.shape,
  ...backupEnv.shape,
  ...remindersEnv.shape,
});

export interface Config extends ServingConfig, EnquiriesConfig, DatabaseConfig, PhotosConfig, OwnerConfig {
  /**
   * Which notification channels are configured; unset (as in tests built by hand) means none. The e-mail channel
   * carries the DKIM signing configuration (`notify.email.dkim`), so whatever sends mail with it signs it.
   */
  notify?: NotifyConfig;
  /** Whether the spam filter judges enquiries; unset (as in tests built by hand) means on. */
  spam?: SpamConfig;
  /** How long enquiries and spam are kept; unset (as in tests built by hand) means the defaults. */
  retention?: RetentionConfig;
  /** When the daily digest of what was kept aside as spam goes out; unset (as in tests built by hand) means none. */
  spamDigest?: SpamDigestConfig;
  /** The SQLite inbox's backups; unset (as in tests built by hand) means none taken by the server. */
  backup?: BackupConfig;
  /** DKIM_DOMAIN, DKIM_SELECTOR and the key, as parsed (also on `notify.email`); unset: mail is not signed. */
  dkim?: DkimConfig;
  /** When the owner's reminders go out (REMINDER_HOUR in SITE_TIMEZONE); unset (as in tests built by hand): 8 there. */
  reminders?: ReminderClock;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = envSchema.safeParse(env);
  // Read only when the rest parsed: the key file is not opened for an environment that is refused anyway.
  const signing = result.success ? readDkim(result.data) : { problems: [] };
  const problems = [
    ...(result.success ? [] : result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`)),
    ...notifyProblems(env),
    ...(result.success ? servingProblems(result.data) : []),
    ...signing.problems,
  ];
  if (!result.success || problems.length > 0) {
    throw new ConfigError(`Invalid environment, the site will not start:\n${problems.join("\n")}`);
  }
  const data = result.data;
  const serving = servingConfig(data);
  const { database, ...store } = databaseConfig(data);
  return {
    ...serving,
    ...enquiriesConfig(data),
    database,
    ...store,
    ...photosConfig(data),
    ...ownerConfig(data),
    notify: notifyConfig(data, signing.dkim),
    ...(signing.dkim ? { dkim: signing.dkim } : {}),
    ...spamConfig(data, serving.timeZone),
    backup: backupConfig(data, database),
    ...remindersConfig(data, serving.timeZone),
  };
}
