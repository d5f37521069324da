/**
 * The business described for search engines (schema.org JSON-LD), from the same content the pages show: Home names
 * the LocalBusiness and its services, About and Contact are pages about it. `origin` is PUBLIC_URL, so every URL is
 * absolute and never taken from a request.
 */
import { aboutPage } from "./about";
import { contactPage } from "./contact";
import { homePage, services } from "./home";
import { photos } from "./photos.generated";
import { brand } from "./shared";

type JsonLd = Record<string, unknown>;

const businessId = (origin: string) => new URL("/#business", origin).href;

/** The images that show the business: the owner's photos (largest JPEG), else the link-preview image. */
function businessImages(origin: string): string[] {
  const own = [...photos.slides, photos.about].flatMap((photo) => (photo ? [photo.jpeg.at(-1)!.src] : []));
  return (own.length > 0 ? own : [photos.social.src]).map((src) => new URL(src, origin).href);
}

export function localBusiness(origin: string): JsonLd {
  return {
    "@context": "https://schema.org",
    "@type": "LocalBusiness",
    "@id": businessId(origin),
    name: brand.name,
    description: brand.tagline,
    url: new URL("/", origin).href,
    logo: new URL(brand.logo.src, origin).href,
    image: businessImages(origin),
    hasOfferCatalog: {
      "@type": "OfferCatalog",
      name: homePage.servicesHeading,
      itemListElement: services.map((service) => ({
        "@type": "Offer",
        itemOffered: { "@type": "Service", name: service.name, description: service.detail },
      })),
    },
  };
}

function pageAbout(type: "AboutPage" | "ContactPage", page: { title: string; description: string }, path: string) {
  return (origin: string): JsonLd => ({
    "@context": "https://schema.org",
    "@type": type,
    name: page.title,
    description: page.description,
    url: new URL(path, origin).href,
    about: { "@type": "LocalBusiness", "@id": businessId(origin), name: brand.name, url: new URL("/", origin).href },
  });
}

export const aboutPageData = pageAbout("AboutPage", aboutPage, "/about");
export const contactPageData = pageAbout("ContactPage", contactPage, "/contact");
