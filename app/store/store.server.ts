import { deletionOperations } from "~/store/deletion.server";
import { digestOperations } from "~/store/digests.server";
import { enquiryOperations } from "~/store/enquiries.server";
import { factorOperations } from "~/store/factors.server";
import { figuresOperations } from "~/store/figures.server";
import { ownerAlertOperations } from "~/store/owner-alerts.server";
import { migrations } from "~/store/migrations.server";
import { notificationOperations } from "~/store/notifications.server";
import { outgoingMailOperations } from "~/store/outgoing-mail.server";
import { ownerOperations } from "~/store/owner.server";
import { openPostgres, type PostgresOptions } from "~/store/postgres.server";
import {
  forgetUnopenableSecrets,
  prepareSealedSecrets,
  resealSecrets,
  sealerWith,
  type SecretsAtStart,
} from "~/store/sealed-secrets.server";
import type { SqlClient } from "~/store/sql.server";
import { photoOperations } from "~/store/photos.server";
import { pipelineOperations } from "~/store/pipeline.server";
import { reminderOperations } from "~/store/reminders.server";
import { siteOperations } from "~/store/site-versions.server";
import { spamOperations } from "~/store/spam.server";
import { openSqlite } from "~/store/sqlite.server";
import type { DatabaseLocation, InboxStore } from "~/store/store.types";
import { v1Operations } from "~/store/v1.server";
import { videoOperations } from "~/store/videos.server";
import { buildPageOperations } from "~/store/build-pages.server";
import { waitlistOwnerOperations } from "~/store/waitlist-owner.server";
import { waitlistOperations } from "~/store/waitlist.server";

/**
 * The InboxStore: the database at `location` opened (SQLite or PostgreSQL), migrated, and each module's operations
 * put together over it. Only the SqlClient differs per database; the operations are written once.
 */

export interface OpenOptions {
  timeoutMs: number;
  postgresPool?: PostgresOptions["pool"];
  /** SECRETS_KEY (ADR 0034): stored credentials are sealed with it; undefined: they stay as they are. */
  secretsKey?: Uint8Array;
  /** Told what the start found of the sealed secrets (the server warns when there is no key). */
  onSecrets?: (found: SecretsAtStart) => void;
}

/**
 * Opens the database, applies pending migrations and prepares the sealed secrets: with the key, values in clear are
 * sealed; a missing or wrong key for sealed values rejects with SecretsKeyError (nothing else is opened then).
 */
export async function openInboxStore(
  location: DatabaseLocation,
  { timeoutMs, postgresPool, secretsKey, onSecrets }: OpenOptions,
): Promise<InboxStore> {
  const client =
    location.kind === "sqlite"
      ? openSqlite(location.path, { timeoutMs })
      : openPostgres(location.url, { timeoutMs, pool: postgresPool });
  try {
    await client.migrate(migrations);
    onSecrets?.(await prepareSealedSecrets(client, secretsKey));
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  return createInboxStore(client, secretsKey);
}

/**
 * `npm run inbox -- secrets rotate`: the database opened and migrated, every stored secret sealed again under
 * `newKey` in one transaction (opened with `secretsKey`), closed.
 */
export async function rotateSealedSecrets(
  location: DatabaseLocation,
  { timeoutMs, secretsKey, newKey }: { timeoutMs: number; secretsKey?: Uint8Array; newKey: Uint8Array },
) {
  const client =
    location.kind === "sqlite" ? openSqlite(location.path, { timeoutMs }) : openPostgres(location.url, { timeoutMs });
  try {
    await client.migrate(migrations);
    return await resealSecrets(client, secretsKey, newKey);
  } finally {
    await client.close().catch(() => {});
  }
}

/** `npm run inbox -- secrets forget`: the one-time codes whose secret no longer opens, removed (a key lost for good). */
export async function forgetLostSecrets(
  location: DatabaseLocation,
  { timeoutMs, secretsKey }: { timeoutMs: number; secretsKey?: Uint8Array },
) {
  const client =
    location.kind === "sqlite" ? openSqlite(location.path, { timeoutMs }) : openPostgres(location.url, { timeoutMs });
  try {
    await client.migrate(migrations);
    return await forgetUnopenableSecrets(client, secretsKey);
  } finally {
    await client.close().catch(() => {});
  }
}

/** The store over a client already open and migrated. */
export function createInboxStore(db: SqlClient, secretsKey?: Uint8Array): InboxStore {
  return {
    ...enquiryOperations(db),
    ...spamOperations(db),
    ...notificationOperations(db),
    ...digestOperations(db),
    ...deletionOperations(db),
    ...v1Operations(db),
    ...ownerOperations(db),
    ...factorOperations(db, sealerWith(secretsKey)),
    ...ownerAlertOperations(db),
    ...siteOperations(db),
    ...photoOperations(db),
    ...videoOperations(db),
    ...pipelineOperations(db),
    ...outgoingMailOperations(db),
    ...reminderOperations(db),
    ...figuresOperations(db),
    ...buildPageOperations(db, sealerWith(secretsKey)),
    ...waitlistOwnerOperations(db),
    ...waitlistOperations(db, sealerWith(secretsKey)),
    ping: () => db.probe(),
    close: () => db.close(),
  };
}
