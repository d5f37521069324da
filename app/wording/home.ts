/** The home page: its headings, the season notice's sentences and the carousel (the services are the owner's content). */
import type { SiteNames } from "./shared";

/**
 * The season notice's sentences (the year, the date and the closed line are the owner's: app/site-content/), and the
 * experience claim the About page and its description make.
 */
export const seasonNotice = {
  open: (year: number) => `Orders are open for the ${year} haunt season.`,
  closesOn: (date: string) => `Orders close on ${date}.`,
  closed: (year: number) => `Orders for the ${year} haunt season are closed.`,
  experience: (years: number) => `over ${years} years of haunt experience`,
} as const;

export const homePage = {
  title: (businessName: string) => `${businessName} | Custom Halloween haunt props`,
  description: (orderNotice: string) =>
    `Custom electric and pneumatic animatronics, haunt electronics, scenic and full haunt builds. ${orderNotice}`,
  heading: (businessName: string) => `Welcome to ${businessName}`,
  servicesHeading: "What we build",
  orderLink: "Order now",
} as const;

/**
 * A service card's terms, put together on the server (app/site-content/public-site.ts), so the page's script carries
 * the finished words rather than these: the price ("From $4,500"), the lead time (the owner's words), and the link to
 * the service's builds, whose service name follows for a screen reader.
 */
export const serviceCard = {
  startingPrice: (amount: string) => `From ${amount}`,
  leadTime: (time: string) => `Typical lead time: ${time}`,
  seeBuilds: (count: number) => `See ${count} ${count === 1 ? "build" : "builds"}`,
  seeBuildsOf: (service: string) => ` of ${service}`,
} as const;

/**
 * The home carousel's three slides in the spec's order: the drawn art each shows until the owner gives it a photo, and
 * the caption it has until the owner writes one. Server-side only: the home page's loader hands them to the carousel,
 * so their words are not in the page's scripts.
 */
export const carouselArt = [
  {
    src: "/images/carousel/large-custom-prop.svg",
    caption: "large custom Halloween prop",
    alt: "A towering cloaked animatronic figure lit by a spotlight in a foggy haunt",
  },
  {
    src: "/images/carousel/pneumatic-prop-lighting.svg",
    caption: "custom pneumatic prop and lighting",
    alt: "A pneumatic pop-up prop bursting open under orange and green stage lights",
  },
  {
    src: "/images/carousel/small-pneumatic-prop.svg",
    caption: "small scale pneumatic prop for haunt builds",
    alt: "A small air-powered scare prop with its cylinder and tubing on a workbench",
  },
] as const;

/** The home carousel: its words and the timing constants from the spec. */
export const carousel = {
  label: "Our props",
  intervalMs: 5000,
  swipeThresholdPx: 40,
  transitionMs: 300,
  /** Intrinsic size of the slide images: reserves the box so nothing shifts while they load. */
  imageWidth: 1200,
  imageHeight: 675,
  /** Each slide's accessible name, e.g. "2 of 3". */
  slideLabel: (position: number, total: number) => `${position} of ${total}`,
  /** The rotation control's label says what pressing it will do. */
  stopRotation: "Stop automatic slide show",
  startRotation: "Start automatic slide show",
  previous: "Previous slide",
  next: "Next slide",
  pickersLabel: "Choose a slide",
  pickerLabel: (position: number, total: number) => `Show slide ${position} of ${total}`,
} as const;

/** The page's title and description, from the published content (its meta and its JSON-LD say the same). */
export function homeMeta(site: SiteNames) {
  return { title: homePage.title(site.business.name), description: homePage.description(site.orders.notice) };
}
