import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseLocation } from "~/config.server";
import { draftContent, publishContent, publishedContent } from "~/site-content/publish.server";
import { defaultSiteContent, type SiteContent } from "~/site-content/schema.server";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { useTempDir } from "../support/temp-dir";

/** The site content's draft and versions, on SQLite and on PostgreSQL alike. */

const temp = useTempDir("haunt-site-store-");
let postgres: TestDatabases | undefined;
beforeAll(async () => {
  if (postgresAvailable) postgres = await sharedPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

const backends: { name: string; fresh: () => Promise<DatabaseLocation> }[] = [
  { name: "SQLite", fresh: async () => ({ kind: "sqlite", path: temp.file("site.db") }) },
  { name: "PostgreSQL", fresh: async () => ({ kind: "postgres", url: await postgres!.createDatabase() }) },
];

const edited = (change: (content: SiteContent) => void): SiteContent => {
  const copy = structuredClone(defaultSiteContent);
  change(copy);
  return copy;
};

for (const backend of backends) {
  describe.skipIf(backend.name === "PostgreSQL" && !postgresAvailable)(`site content on ${backend.name}`, () => {
    let store: InboxStore;
    beforeAll(async () => {
      store = await openInboxStore(await backend.fresh(), { timeoutMs: 10_000 });
    });
    afterAll(() => store.close());

    it("starts with the defaults, no version and an unsaved draft", async () => {
      expect(await store.latestSiteVersion()).toBe(0);
      expect(await store.publishedSite()).toBeNull();
      expect(await publishedContent(store)).toEqual(defaultSiteContent);
      expect(await draftContent(store)).toEqual({ content: defaultSiteContent, revision: 0 });
    });

    it("saves a draft (nothing public changes) and refuses a save from a stale revision, saying who and when", async () => {
      const draft = edited((c) => (c.season.year = 2026));
      const saved = await store.saveSiteDraft(JSON.stringify(draft), 0, "ann@example.com", new Date(1_000));
      expect(saved).toEqual({ ok: true, revision: 1 });
      expect(await store.latestSiteVersion()).toBe(0);
      const stale = await store.saveSiteDraft(JSON.stringify(defaultSiteContent), 0, "bob@example.com");
      expect(stale).toMatchObject({
        ok: false,
        draft: { revision: 1, savedBy: "ann@example.com", savedAt: new Date(1_000) },
      });
      expect((await draftContent(store)).content.season.year).toBe(2026);
    });

    it("publishes a version with its changes and activity entry; nothing changed publishes nothing", async () => {
      const content = edited((c) => {
        c.season.year = 2027;
        c.services[0]!.name = "Electric animatronics";
      });
      const published = await publishContent(store, content, 1, "ann@example.com");
      expect(published).toEqual({
        ok: true,
        version: 1,
        changes: [
          { label: "Season year", before: "2025", after: "2027" },
          { label: "Service 1 name", before: "Custom electric animatronics", after: "Electric animatronics" },
        ],
      });
      expect(await store.latestSiteVersion()).toBe(1);
      expect(await publishedContent(store)).toEqual(content);
      const [entry] = await store.listActivity({ limit: 1 });
      expect(entry).toMatchObject({
        actor: "ann@example.com",
        action: "published the site",
        detail:
          "version 1: Season year: 2025 → 2027; Service 1 name: Custom electric animatronics → Electric animatronics",
      });
      expect(await publishContent(store, content, 2, "ann@example.com")).toEqual({ ok: false, reason: "unchanged" });
    });

    it("of two publishes from the same revision at once, exactly one lands", async () => {
      const { revision } = await store.siteDraft();
      const results = await Promise.all(
        [2030, 2031, 2032].map((year) =>
          publishContent(
            store,
            edited((c) => (c.season.year = year)),
            revision,
            `op${year}@example.com`,
          ),
        ),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      expect(results.filter((result) => !result.ok && result.reason === "stale")).toHaveLength(2);
      expect(await store.latestSiteVersion()).toBe(2);
    });

    it("restores an older version as a new one, and lists versions newest first", async () => {
      const old = await store.siteVersion(1);
      const { revision } = await store.siteDraft();
      const restored = await publishContent(
        store,
        JSON.parse(old!.content) as SiteContent,
        revision,
        "bob@example.com",
        {
          restoredFrom: 1,
        },
      );
      expect(restored).toMatchObject({ ok: true, version: 3 });
      const versions = await store.siteVersions({ limit: 10, offset: 0 });
      expect(versions.map((v) => [v.number, v.restoredFrom, v.publishedBy])).toEqual([
        [3, 1, "bob@example.com"],
        [2, null, expect.stringMatching(/^op20\d\d@example\.com$/)],
        [1, null, "ann@example.com"],
      ]);
      expect((await publishedContent(store)).season.year).toBe(2027);
      expect((await store.listActivity({ limit: 1 }))[0]!.detail).toMatch(
        /^version 3: restored version 1; Season year: 203\d → 2027; Service 1 name: Custom electric animatronics → Electric/,
      );
    });
  });
}
