import { buildPhotoSite } from "../support/photo-site.mjs";

/**
 * Runs once before the end-to-end tests (playwright.config.ts, globalSetup), in the runner's process: builds the copy
 * of the site with the fixture photos (tests/support/photo-site.mjs) when this run includes photos.spec.ts, so that
 * the file's hook only starts its server and no test's time limit pays for encoding 12-megapixel photos. After the
 * integration stage (npm test, CI) the copy is already built and this returns at once.
 */
export default async function setup() {
  // The file filters given on the command line (none: every file runs), each matched as part of a file's path; an
  // option's value (`--workers 4`, `-g words`) is no path.
  const filters = process.argv
    .slice(process.argv.indexOf("test") + 1)
    .filter((arg) => !arg.startsWith("-") && /[/.]/.test(arg));
  if (filters.length === 0 || filters.some((filter) => "tests/e2e/photos.spec.ts".includes(filter)))
    await buildPhotoSite();
}
