import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { photoSites } from "./photo-site.mjs";
import { postgresAvailable, startPostgres } from "./postgres";
import { ensureBuilt, projectRoot } from "./site-server";
import { watchTempFolder } from "./temp-leaks.mjs";

/**
 * Runs once before the integration tests (vitest.config.ts, globalSetup), in the runner's own process: the slow
 * preparations every file would otherwise repeat or wait for, done once here so that no test or hook spends its time
 * limit on them.
 * - The site's build, when it is missing or older than the sources.
 * - The copies of the site built with the fixture photos and without photos (photo-site.mjs, photoSites), when the run
 *   includes a file that uses them: begun here and not waited for (16 s in a fresh clone), so the other files run
 *   meanwhile; the two files that use them wait for that build in their own beforeAll.
 * - One PostgreSQL cluster for the whole run: each test makes its own database in it (postgres.ts, sharedPostgres).
 *   Tests that stop or restart the database server start their own cluster instead.
 * At the end it names what the run left in the system's temp folder (temp-leaks.mjs).
 */

declare module "vitest" {
  export interface ProvidedContext {
    /** postgres://… of the run's cluster's admin database; "" when PostgreSQL is not installed. */
    postgresAdminUrl: string;
  }
}

/** The files that start the photo copies: a run of other files (`npx vitest run FILE`) does not wait to build them. */
const photoSiteFiles = ["tests/integration/photos.test.ts", "tests/integration/public-photos.test.ts"];

/** True when this run includes a file that uses the photo copies (no file named on the command line: all run). */
function runsPhotoSiteFiles(project: TestProject): boolean {
  // The file filters given on the command line (undefined: every file), each matched as part of a file's path.
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  if (!filters?.length) return true;
  return photoSiteFiles.some((file) => filters.some((filter) => join(projectRoot, file).includes(filter)));
}

export default async function setup(project: TestProject) {
  const leftInTemp = watchTempFolder("integration");
  // The photo copies link the checkout's node_modules and build from its sources: the checkout's build first (both
  // builds run `npm run build`, and two at once on a small machine are slower than one after the other).
  await ensureBuilt();
  const postgres = postgresAvailable ? await startPostgres() : undefined;
  project.provide("postgresAdminUrl", postgres ? `postgres://postgres@127.0.0.1:${postgres.port}/postgres` : "");
  // A failure is the photo files' to report: they ask for the sites again, and that build's error is theirs.
  const photoBuild = runsPhotoSiteFiles(project) ? photoSites().catch(() => undefined) : undefined;
  return async () => {
    await photoBuild;
    postgres?.stop();
    leftInTemp();
  };
}
