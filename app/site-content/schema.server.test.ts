import { describe, expect, it } from "vitest";
import { describeChanges } from "~/site-content/changes";
import { builtPhotos } from "~/site-content/public-photos.server";
import { publicSite } from "~/site-content/public-site";
import { defaultSiteContent, validateSiteContent, type SiteContent } from "~/site-content/schema.server";

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
      c.services.push({ name: "Repairs", detail: "We fix props." });
    }) as SiteContent;
    expect(describeChanges(defaultSiteContent, after)).toEqual([
      { label: "Season year", before: "2025", after: "2027" },
      { label: "Service 2 name", before: "Custom pneumatic animatronics", after: "Air-powered props" },
      { label: "Service 6 name", before: "(empty)", after: "Repairs" },
      { label: "Service 6 detail", before: "(empty)", after: "We fix props." },
    ]);
    expect(describeChanges(defaultSiteContent, defaultSiteContent)).toEqual([]);
  });
});
