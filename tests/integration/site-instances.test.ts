import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { defaultSiteContent, type SiteContent } from "~/site-content/schema.server";
import { postgresAvailable, startPostgres, type TestPostgres } from "../support/postgres";
import { getPage, jsonLdServices, publishSite } from "../support/site-page";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";

/**
 * The site's content on several instances of the built server sharing one PostgreSQL database (ADR 0030): each keeps
 * `/` in its page cache, a publish reaches every instance's next requests within 2 s (their poll), with a new ETag,
 * JSON-LD and meta description; while the database does not answer, the last published content is served.
 */

let postgres: TestPostgres;
const sites: SiteServer[] = [];

beforeAll(async () => {
  if (!postgresAvailable) return;
  await ensureBuilt();
  postgres = await startPostgres();
}, 120_000);
afterAll(() => postgres?.stop());
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.stop()));
});

async function instances(databaseUrl: string, count: number): Promise<SiteServer[]> {
  const started = await Promise.all(
    Array.from({ length: count }, () =>
      startSite({ API_HOST: "", DATABASE_URL: databaseUrl, PUBLIC_URL: "https://grimforge.example" }),
    ),
  );
  sites.push(...started);
  return started;
}

const season2027: SiteContent = {
  ...defaultSiteContent,
  season: { ...defaultSiteContent.season, year: 2027 },
  services: [...defaultSiteContent.services, { name: "Fog and scent machines", detail: "Atmosphere on cue." }],
};

const shows = (year: number) => async (site: SiteServer) =>
  (await getPage(site.url)).html.includes(`Orders are open for the ${year} haunt season.`);

/** Waits until every site shows `year` on `/`: a publish must reach them within 2 s, by their own poll. */
async function waitForSeason(targets: SiteServer[], year: number, timeoutMs = 2_000): Promise<void> {
  await Promise.all(
    targets.map((site) => waitFor(() => shows(year)(site), `the ${year} season on ${site.url}/`, timeoutMs)),
  );
}

describe.skipIf(!postgresAvailable)("the site's content on two instances on one PostgreSQL database", () => {
  it(
    "both serve the defaults from their page cache; a publish shows on both within 2 s, in the page, meta and JSON-LD",
    { timeout: 90_000 },
    async () => {
      const databaseUrl = await postgres.createDatabase();
      const both = await instances(databaseUrl, 2);
      const before = [];
      for (const site of both) {
        await waitForSeason([site], 2025, 5_000);
        const first = await getPage(site.url);
        const again = await getPage(site.url);
        expect(again.fromCache, `${site.url}/ kept in the page cache`).toBe(true);
        expect(again.etag).toBe(first.etag);
        expect(again.description).toContain("Orders are open for the 2025 haunt season.");
        expect(jsonLdServices(again)).toEqual(defaultSiteContent.services.map((service) => service.name));
        before.push(again);
      }
      // Behind one public name, both instances give the same bytes: a CDN sees one ETag.
      expect(before[1]!.etag).toBe(before[0]!.etag);

      await publishSite(databaseUrl, season2027);
      await waitForSeason(both, 2027);

      for (const site of both) {
        const page = await getPage(site.url);
        expect(page.status).toBe(200);
        expect(page.etag).not.toBe(before[0]!.etag);
        expect(page.html).not.toContain("Orders are open for the 2025 haunt season.");
        expect(page.description).toContain("Orders are open for the 2027 haunt season.");
        expect(jsonLdServices(page)).toContain("Fog and scent machines");
        // The new version is kept in its turn.
        const again = await getPage(site.url);
        expect(again.fromCache).toBe(true);
        expect(again.etag).toBe(page.etag);
      }
    },
  );

  it(
    "while the database is down, the last published content is served (no 5xx) and logged once; once back, a publish shows",
    { timeout: 120_000 },
    async () => {
      const databaseUrl = await postgres.createDatabase();
      const [site] = await instances(databaseUrl, 1);
      await publishSite(databaseUrl, season2027);
      await waitForSeason([site!], 2027, 5_000);
      await getPage(site!.url); // kept in the page cache

      postgres.stopServer();
      try {
        const problem = "site content: cannot read the published version";
        await waitFor(() => site!.output().includes(problem), "the outage in the log", 10_000);
        // A page first asked for now is rendered from the content held, and kept like any other.
        expect((await getPage(site!.url, "/about")).fromCache).toBe(false);
        expect((await getPage(site!.url, "/about")).fromCache).toBe(true);
        // Several polls later: every public page still answers with the published content, rendered or kept.
        for (let round = 0; round < 3; round++) {
          for (const path of ["/", "/about", "/privacy"]) {
            const page = await getPage(site!.url, path);
            expect(page.status, path).toBe(200);
            if (path === "/") expect(page.html).toContain("Orders are open for the 2027 haunt season.");
          }
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
        expect(site!.output().split(problem).length - 1, "logged once per outage").toBe(1);
      } finally {
        postgres.startServer();
      }

      await waitFor(
        () => site!.output().includes("site content: the database answers again"),
        "the site to read the database again",
        30_000,
      );
      await publishSite(databaseUrl, { ...season2027, season: { ...season2027.season, year: 2028 } });
      await waitForSeason([site!], 2028);
    },
  );
});
