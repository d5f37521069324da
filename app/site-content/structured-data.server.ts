/**
 * The business described for search engines (schema.org JSON-LD), from the same published content the pages show:
 * Home names the LocalBusiness (its name, tagline, contact details, region, links and services), About and Contact are
 * pages about it. `origin` is PUBLIC_URL, so every URL is absolute and never taken from a request. Built by the
 * pages' loaders on the server, so none of it rides in the browser's scripts.
 */
import { homePage } from "~/wording/home";
import { brand } from "~/wording/shared";
import { aboutMeta } from "~/wording/about";
import { contactMeta } from "~/wording/contact";
import type { PublicSite } from "~/site-content/public-site";

export type JsonLdData = Record<string, unknown>;

const businessId = (origin: string) => new URL("/#business", origin).href;

/** The images that show the business: the photos the pages show (largest JPEG), else the link-preview image. */
function businessImages({ photos }: PublicSite, origin: string): string[] {
  const own = [...photos.slides, photos.about].flatMap((photo) => (photo ? [photo.jpeg.at(-1)!.src] : []));
  return (own.length > 0 ? own : [photos.social.src]).map((src) => new URL(src, origin).href);
}

/** The order window as search engines read an offer: taken or not now, and until when (the close date's midnight). */
function orderAvailability({ orders, changesAt }: PublicSite) {
  return {
    availability: `https://schema.org/${orders.open ? "InStock" : "OutOfStock"}`,
    ...(orders.open && changesAt !== null ? { availabilityEnds: new Date(changesAt).toISOString() } : {}),
  };
}

export function localBusiness(site: PublicSite, origin: string): JsonLdData {
  const { name, email, phone, region, links } = site.business;
  return {
    "@context": "https://schema.org",
    "@type": "LocalBusiness",
    "@id": businessId(origin),
    name,
    description: site.tagline,
    url: new URL("/", origin).href,
    logo: new URL(brand.logo.src, origin).href,
    image: businessImages(site, origin),
    ...(email ? { email } : {}),
    ...(phone ? { telephone: phone } : {}),
    ...(region ? { areaServed: region, address: { "@type": "PostalAddress", addressLocality: region } } : {}),
    ...(links.length > 0 ? { sameAs: links } : {}),
    hasOfferCatalog: {
      "@type": "OfferCatalog",
      name: homePage.servicesHeading,
      itemListElement: site.services.map((service) => ({
        "@type": "Offer",
        itemOffered: { "@type": "Service", name: service.name, description: service.detail },
        ...orderAvailability(site),
        // A starting price is the least it costs, not the price: minPrice says so.
        ...(service.minPrice !== null
          ? {
              priceSpecification: {
                "@type": "PriceSpecification",
                minPrice: service.minPrice,
                priceCurrency: site.business.currency,
              },
            }
          : {}),
      })),
    },
  };
}

function pageAbout(type: "AboutPage" | "ContactPage", page: { title: string; description: string }, path: string) {
  return (site: PublicSite, origin: string): JsonLdData => ({
    "@context": "https://schema.org",
    "@type": type,
    name: page.title,
    description: page.description,
    url: new URL(path, origin).href,
    about: {
      "@type": "LocalBusiness",
      "@id": businessId(origin),
      name: site.business.name,
      url: new URL("/", origin).href,
    },
  });
}

export const aboutPageData = (site: PublicSite, origin: string) =>
  pageAbout("AboutPage", aboutMeta(site), "/about")(site, origin);
export const contactPageData = (site: PublicSite, origin: string) =>
  pageAbout("ContactPage", contactMeta(site), "/contact")(site, origin);
