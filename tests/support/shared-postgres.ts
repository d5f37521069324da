import { inject } from "vitest";
import { asAdmin, databaseName, startPostgres, type TestDatabases } from "./postgres";

/**
 * Databases in the cluster the run's global setup started (tests/support/integration-setup.ts), each dropped again by
 * stop(). Run outside that setup (no cluster provided), a cluster of the caller's own.
 */
export async function sharedPostgres(): Promise<TestDatabases> {
  const adminUrl = inject("postgresAdminUrl");
  if (!adminUrl) return startPostgres();
  const made: string[] = [];
  return {
    async createDatabase(name = databaseName()) {
      await asAdmin(adminUrl, `CREATE DATABASE ${name}`);
      made.push(name);
      return new URL(`/${name}`, adminUrl).href;
    },
    async stop() {
      // FORCE: a server the test left running (or one that crashed) may still hold a connection.
      for (const name of made.splice(0))
        await asAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    },
  };
}
