import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { buildPhotoSite } from "./photo-site.mjs";
import { postgresAvailable, startPostgres } from "./postgres";
import { ensureBuilt, projectRoot } from "./site-server";
import { watchTempFolder } from "./temp-leaks.mjs";

/**
 * Runs once before the integration tests (vitest.config.ts, globalSetup), in the runner's own process: the slow
 * preparations every file would otherwise repeat or wait for, done once here so that no test or hook spends its time
 * limit on them.
 * - The site's build, when it is missing or older than the sources.
 * - The copies of the site built with the fixture photos and without photos (photo-site.mjs), when the run includes a
 *   file that uses them. Without photos is the checkout's own build when its photos/ holds none (a fresh clone): the
 *   same site, so not built twice.
 * - One PostgreSQL cluster for the whole run: each test makes its own database in it (postgres.ts, sharedPostgres).
 *   Tests that stop or restart the database server start their own cluster instead.
 * At the end it names what the run left in the system's temp folder (temp-leaks.mjs).
 */

declare module "vitest" {
  export interface ProvidedContext {
    /** postgres://… of the run's cluster's admin database; "" when PostgreSQL is not installed. */
    postgresAdminUrl: string;
    /** The copy of the site built with the fixture photos (photo-site.mjs). */
    photoSiteDir: string;
    /** A built site without photos: the checkout when its photos/ holds none, else a copy (photo-site.mjs). */
    artSiteDir: string;
  }
}

/** True when the checkout's photos/ holds a photo the build would use or complain about (anything but a README). */
function checkoutHasPhotos(): boolean {
  return readdirSync(join(projectRoot, "photos")).some((name) => !/^readme(\.md)?$/i.test(name));
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
  try {
    if (runsPhotoSiteFiles(project)) {
      project.provide("photoSiteDir", await buildPhotoSite());
      project.provide("artSiteDir", checkoutHasPhotos() ? await buildPhotoSite({ withPhotos: false }) : projectRoot);
    }
    project.provide("postgresAdminUrl", postgres ? `postgres://postgres@127.0.0.1:${postgres.port}/postgres` : "");
  } catch (error) {
    postgres?.stop();
    throw error;
  }
  return () => {
    postgres?.stop();
    leftInTemp();
  };
}
