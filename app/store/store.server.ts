import { deletionOperations } from "~/store/deletion.server";
import { digestOperations } from "~/store/digests.server";
import { enquiryOperations } from "~/store/enquiries.server";
import { factorOperations } from "~/store/factors.server";
import { loginAlertOperations } from "~/store/login-alerts.server";
import { migrations } from "~/store/migrations.server";
import { notificationOperations } from "~/store/notifications.server";
import { ownerOperations } from "~/store/owner.server";
import { openPostgres, type PostgresOptions } from "~/store/postgres.server";
import type { SqlClient } from "~/store/sql.server";
import { photoOperations } from "~/store/photos.server";
import { siteOperations } from "~/store/site.server";
import { spamOperations } from "~/store/spam.server";
import { openSqlite } from "~/store/sqlite.server";
import type { DatabaseLocation, InboxStore } from "~/store/types";
import { v1Operations } from "~/store/v1.server";

/**
 * The InboxStore: the database at `location` opened (SQLite or PostgreSQL), migrated, and each module's operations
 * put together over it. Only the SqlClient differs per database; the operations are written once.
 */

/** Opens the database and applies pending migrations. */
export async function openInboxStore(
  location: DatabaseLocation,
  { timeoutMs, postgresPool }: { timeoutMs: number; postgresPool?: PostgresOptions["pool"] },
): Promise<InboxStore> {
  const client =
    location.kind === "sqlite"
      ? openSqlite(location.path, { timeoutMs })
      : openPostgres(location.url, { timeoutMs, pool: postgresPool });
  try {
    await client.migrate(migrations);
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  return createInboxStore(client);
}

/** The store over a client already open and migrated. */
export function createInboxStore(db: SqlClient): InboxStore {
  return {
    ...enquiryOperations(db),
    ...spamOperations(db),
    ...notificationOperations(db),
    ...digestOperations(db),
    ...deletionOperations(db),
    ...v1Operations(db),
    ...ownerOperations(db),
    ...factorOperations(db),
    ...loginAlertOperations(db),
    ...siteOperations(db),
    ...photoOperations(db),
    ping: () => db.probe(),
    close: () => db.close(),
  };
}
