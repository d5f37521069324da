/** The home page: its copy, the season notice, the services and the carousel. */
import { brand } from "./shared";

// The season year appears in several sentences: change it here only.
const seasonYear = 2025;

export const season = {
  year: seasonYear,
  openNotice: `Orders are open for the ${seasonYear} haunt season.`,
  closeNote:
    "Orders close a couple of months before Halloween so every build can be finished, tested and delivered in time for opening night.",
} as const;

export const homePage = {
  title: `${brand.name} | Custom Halloween haunt props`,
  description: `Custom electric and pneumatic animatronics, haunt electronics, scenic and full haunt builds. ${season.openNotice}`,
  heading: `Welcome to ${brand.name}`,
  servicesHeading: "What we build",
  orderLink: "Order now",
} as const;

export const services = [
  {
    name: "Custom electric animatronics",
    detail: "Motor-driven figures with smooth, repeatable movement for scares that run all night.",
  },
  {
    name: "Custom pneumatic animatronics",
    detail: "Air-powered pop-ups, lunges and drops with the speed that makes guests jump.",
  },
  {
    name: "Custom haunt electronics",
    detail: "Program boards, relay circuits and lighting that trigger, time and light every scare.",
  },
  {
    name: "Scenic design and building",
    detail: "Walls, facades and set pieces that turn an empty room into somewhere nobody wants to be.",
  },
  {
    name: "Full haunt design and building",
    detail: "From the first floor plan to the final scare, a complete haunted attraction built to run.",
  },
] as const;

/** The home carousel: timing constants from the spec and the three slides in the spec's order. */
export const carousel = {
  label: "Our props",
  intervalMs: 5000,
  swipeThresholdPx: 40,
  transitionMs: 300,
  slides: [
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
  ],
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
