import { describe, expect, it } from "vitest";
import { describeChanges } from "~/site-content/changes";
import { builtPhotos } from "~/site-content/public-photos.server";
import { publicSite } from "~/site-content/public-site";
import {
  contentFromJson,
  defaultSiteContent,
  validateSiteContent,
  type SiteContent,
} from "~/site-content/schema.server";

const withChange = (change: (content: SiteContent) => void): unknown => {
  const copy = structuredClone(defaultSiteContent) as SiteContent;
  change(copy);
  return copy;
};

describe("the site content's schema", () => {
  it("defaults to the spec's words: the 2025 season, open, five services, over 15 years", () => {
    const site = publicSite(
      defaultSiteContent,
      new Date("2026-11-25T12:00:00Z"),
      "UTC",
      builtPhotos(defaultSiteContent),
    );
    expect(site.orders).toEqual({ open: true, notice: "Orders are open for the 2025 haunt season.", detail: null });
    expect(site.services).toHaveLength(5);
    expect(site.aboutParagraphs).toHaveLength(4);
    expect(site.aboutParagraphs[0]).toContain("Between us we have over 15 years of haunt experience:");
    expect(site.business.name).toBe("Grimforge Haunt Props");
    expect(validateSiteContent(defaultSiteContent)).toEqual({ ok: true, content: defaultSiteContent });
  });

  it("refuses bad input with one message per field", () => {
    const result = validateSiteContent(
      withChange((c) => {
        (c.season as { year: unknown }).year = "25";
        c.season.closesOn = "2026-02-30";
        c.home.tagline = "";
        c.services[1]!.name = "<b>Bold</b> props";
        c.contact.intro = "x".repeat(401);
        c.business.email = "not an address";
        c.business.links = ["javascript:alert(1)"];
        c.business.name = "Two\nlines";
      }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      "season.year": "Please enter a four-digit year from 2000 to 2100.",
      "season.closesOn": "Please enter a date as YYYY-MM-DD, e.g. 2026-09-01.",
      "home.tagline": "Please fill this in.",
      "services.1.name": "Text only: please remove the HTML tag (the page shows text as written).",
      "contact.intro": "Please keep it to 400 characters or fewer.",
      "business.email": "Please enter an e-mail address like name@example.com, or leave it empty.",
      "business.links.0": "Please enter a full web address starting with https:// or http://.",
      "business.name": "Please keep this to one line.",
    });
  });

  it("refuses an empty service list and bidi overrides; empty optional fields become null", () => {
    const empty = validateSiteContent(withChange((c) => (c.services = [])));
    expect(empty.ok || empty.errors).toEqual({ services: "Please keep at least one service." });
    const bidi = validateSiteContent(withChange((c) => (c.home.tagline = "Props \u202eevil")));
    expect(bidi.ok || bidi.errors["home.tagline"]).toMatch(/control characters/);
    const blanks = validateSiteContent(withChange((c) => Object.assign(c.business, { email: " ", phone: "" })));
    expect(blanks.ok && blanks.content.business).toMatchObject({ email: null, phone: null });
  });

  it("names each change with its label, the old and the new value", () => {
    const after = withChange((c) => {
      c.season.year = 2027;
      c.services[1]!.name = "Air-powered props";
      c.services.push({ name: "Repairs", detail: "We fix props.", startingPrice: null, leadTime: "" });
    }) as SiteContent;
    expect(describeChanges(defaultSiteContent, after)).toEqual([
      { label: "Season year", before: "2025", after: "2027" },
      { label: "Service 2 name", before: "Custom pneumatic animatronics", after: "Air-powered props" },
      { label: "Service 6 name", before: "(empty)", after: "Repairs" },
      { label: "Service 6 detail", before: "(empty)", after: "We fix props." },
    ]);
    expect(describeChanges(defaultSiteContent, defaultSiteContent)).toEqual([]);
  });

  it("names a service's starting price and lead time and the currency when they change", () => {
    const after = withChange((c) => {
      c.services[1]!.startingPrice = 4500;
      c.services[1]!.leadTime = "8–12 weeks";
      c.business.currency = "EUR";
    }) as SiteContent;
    expect(describeChanges(defaultSiteContent, after)).toEqual([
      { label: "Currency", before: "USD", after: "EUR" },
      { label: "Service 2 starting price", before: "(empty)", after: "4500" },
      { label: "Service 2 typical lead time", before: "(empty)", after: "8–12 weeks" },
    ]);
    // A service removed with its price says so; one without a price or lead time names only its name and detail.
    const removed = withChange((c) => c.services.splice(1, 4)) as SiteContent;
    expect(describeChanges(after, removed).map((change) => change.label)).toEqual([
      "Currency",
      "Service 2 name",
      "Service 2 detail",
      "Service 2 starting price",
      "Service 2 typical lead time",
      ...[3, 4, 5].flatMap((n) => [`Service ${n} name`, `Service ${n} detail`]),
    ]);
    expect(describeChanges(after, removed)).toContainEqual({
      label: "Service 2 starting price",
      before: "4500",
      after: "(empty)",
    });
  });

  it("gives the home page's cards their price formatted in the business's currency, and nothing when none", () => {
    const card = (change: (content: SiteContent) => void) =>
      publicSite(
        withChange(change) as SiteContent,
        new Date("2026-11-25T12:00:00Z"),
        "UTC",
        builtPhotos(defaultSiteContent),
      ).services[0];
    expect(card((c) => Object.assign(c.services[0]!, { startingPrice: 4500, leadTime: "8–12 weeks" }))).toEqual({
      name: defaultSiteContent.services[0]!.name,
      detail: defaultSiteContent.services[0]!.detail,
      startingPrice: "From $4,500",
      minPrice: 4500,
      leadTime: "Typical lead time: 8–12 weeks",
      work: null,
    });
    expect(
      card((c) => {
        c.services[0]!.startingPrice = 4500;
        c.business.currency = "EUR";
      })?.startingPrice,
    ).toBe("From €4,500");
    expect(card((c) => (c.services[0]!.startingPrice = 0))?.startingPrice).toBe("From $0");
    expect(card((c) => (c.services[0]!.startingPrice = 1_250_000))?.startingPrice).toBe("From $1,250,000");
    expect(card(() => {})).toMatchObject({ startingPrice: null, minPrice: null, leadTime: null, work: null });
  });

  it("defaults the currency to USD and keeps a stored version without prices", () => {
    const { services, business, ...rest } = structuredClone(defaultSiteContent);
    const older = {
      ...rest,
      services: services.map(({ name, detail }) => ({ name, detail })),
      business: { ...business, currency: undefined },
    };
    const result = validateSiteContent(JSON.parse(JSON.stringify(older)));
    expect(result.ok && result.content.business.currency).toBe("USD");
    expect(result.ok && result.content.services[0]).toMatchObject({ startingPrice: null, leadTime: "" });
  });

  it("gives a stored version from before the acknowledgement its default: off", () => {
    const { acknowledgement, ...older } = structuredClone(defaultSiteContent);
    expect(acknowledgement.enabled).toBe(false);
    const content = contentFromJson(JSON.stringify({ ...older, business: { ...older.business, name: "Old Haunt" } }));
    expect(content.business.name).toBe("Old Haunt");
    expect(content.acknowledgement).toEqual(defaultSiteContent.acknowledgement);
  });
});
