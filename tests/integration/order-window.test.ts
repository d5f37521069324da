import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSiteContent, type SiteContent } from "~/site-content/schema.server";
import { postForm } from "../support/site-http";
import { enquiry } from "../support/enquiry";
import { getPage, publishSite, type PublicPage } from "../support/site-page";
import { startSite, waitFor, type SiteServer } from "../support/site-server";

/**
 * The season's order window as a visitor, a search engine and a link preview see it on the built server: a close date
 * in the past closes orders, a future one is announced, the owner's switch closes them; the contact form takes
 * enquiries all the same. (Its midnight in SITE_TIMEZONE: app/site-content/order-window.test.ts; the page cache
 * dropping a page then: tests/integration/page-cache.test.ts; an invalid SITE_TIMEZONE: spam-digest.test.ts.)
 */

let site: SiteServer;
let published = 0;
beforeAll(async () => {
  site = await startSite({ API_HOST: "", PUBLIC_URL: "https://grimforge.example" });
}, 60_000);
afterAll(async () => {
  await site?.stop();
});

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const longDate = (date: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" }).format(
    new Date(`${date}T00:00:00Z`),
  );

/**
 * Publishes the season (each test's own year) and returns `/` once the server shows it (its poll finds the version
 * within a second or two) and has kept it: what every later visitor, CDN and search engine gets.
 */
async function withSeason(season: Partial<SiteContent["season"]> & { year: number }): Promise<PublicPage> {
  const content = { ...defaultSiteContent, season: { ...defaultSiteContent.season, ...season } };
  expect(await publishSite(site.databaseUrl, content)).toBe(++published);
  let page: PublicPage | undefined;
  await waitFor(
    async () => {
      page = await getPage(site.url);
      return page.fromCache && page.html.includes(`${season.year} haunt season`);
    },
    `the ${season.year} season kept on /`,
    5_000,
  );
  return page!;
}

const offers = (page: PublicPage) => {
  const business = page.jsonLd.find((data) => data["@type"] === "LocalBusiness") as {
    hasOfferCatalog: { itemListElement: Record<string, unknown>[] };
  };
  return business.hasOfferCatalog.itemListElement;
};

const noticeOf = (html: string) => /data-season-notice="(open|closed)"/.exec(html)?.[1];

describe("the order window on the built server", () => {
  it("a close date in the past: orders closed with the owner's line, in the page, meta description and JSON-LD; enquiries still taken", async () => {
    const page = await withSeason({ year: 2026, closesOn: day(-30), closedLine: "Ask us about next season now." });
    expect(noticeOf(page.html)).toBe("closed");
    expect(page.html).toContain("Orders for the 2026 haunt season are closed.");
    expect(page.html).toContain("Ask us about next season now.");
    expect(page.html).not.toContain("Orders are open");
    expect(page.description).toContain("Orders for the 2026 haunt season are closed.");
    for (const offer of offers(page)) {
      expect(offer.availability).toBe("https://schema.org/OutOfStock");
      expect(offer).not.toHaveProperty("availabilityEnds");
    }

    const values = enquiry();
    const posted = await postForm(site.url, values);
    expect(posted).toMatchObject({ status: 303, location: "/contact?sent=1" });
    expect((await site.stored()).map((stored) => stored.email)).toContain(values.email);
  });

  it("a future close date: orders open, and the date they close on", async () => {
    const closesOn = day(30);
    const page = await withSeason({ year: 2027, closesOn, ordersOpen: true, closedLine: "" });
    expect(noticeOf(page.html)).toBe("open");
    expect(page.html).toContain("Orders are open for the 2027 haunt season.");
    expect(page.html).toContain(`Orders close on ${longDate(closesOn)}.`);
    expect(page.description).toContain("Orders are open for the 2027 haunt season.");
    for (const offer of offers(page)) {
      expect(offer.availability).toBe("https://schema.org/InStock");
      // Midnight of the close date in SITE_TIMEZONE (UTC here).
      expect(offer.availabilityEnds).toBe(`${closesOn}T00:00:00.000Z`);
    }
  });

  it("orders switched off: closed, whatever the date", async () => {
    const page = await withSeason({ year: 2028, closesOn: day(60), ordersOpen: false, closedLine: "" });
    expect(noticeOf(page.html)).toBe("closed");
    expect(page.html).toContain("Orders for the 2028 haunt season are closed.");
    expect(page.html).not.toContain("Orders close on");
    expect(page.description).toContain("Orders for the 2028 haunt season are closed.");
    for (const offer of offers(page)) expect(offer.availability).toBe("https://schema.org/OutOfStock");
  });
});
