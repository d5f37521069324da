import { describe, expect, it } from "vitest";
import { builtPhotos } from "~/site-content/public-photos.server";
import { publicSite } from "~/site-content/public-site";
import { defaultSiteContent, type SiteContent } from "~/site-content/schema.server";
import { localBusiness } from "~/site-content/structured-data.server";

const offersOf = (content: SiteContent) => {
  const site = publicSite(content, new Date("2026-11-25T12:00:00Z"), "UTC", builtPhotos(content));
  const business = localBusiness(site, "https://haunt.example") as {
    hasOfferCatalog: { itemListElement: Record<string, unknown>[] };
  };
  return business.hasOfferCatalog.itemListElement;
};

describe("the services' offers in the JSON-LD", () => {
  it("gives an offer with a starting price a PriceSpecification with minPrice and the business's currency", () => {
    const content = structuredClone(defaultSiteContent);
    content.services[1]!.startingPrice = 4500;
    content.services[1]!.leadTime = "8–12 weeks";
    content.business.currency = "EUR";
    const offers = offersOf(content);
    expect(offers[1]).toEqual({
      "@type": "Offer",
      itemOffered: { "@type": "Service", name: content.services[1]!.name, description: content.services[1]!.detail },
      availability: "https://schema.org/InStock",
      priceSpecification: { "@type": "PriceSpecification", minPrice: 4500, priceCurrency: "EUR" },
    });
  });

  it("says nothing of a price for a service without one (0 is a price)", () => {
    const content = structuredClone(defaultSiteContent);
    content.services[0]!.startingPrice = 0;
    const offers = offersOf(content);
    expect(offers[0]!.priceSpecification).toEqual({ "@type": "PriceSpecification", minPrice: 0, priceCurrency: "USD" });
    expect(offers.slice(1).every((offer) => !("priceSpecification" in offer))).toBe(true);
  });
});
