/**
 * Every business word and constant of the site lives here. Operators change copy in this file and nowhere else;
 * components, routes, tests and the Tailwind config all read from it.
 */

export const brand = {
  /** The spec does not name the business; this is the default brand. */
  name: "Grimforge Haunt Props",
  tagline: "Custom animatronics, haunt electronics and scenic builds for haunted attractions.",
  logo: { src: "/logo.svg", alt: "" },
  themeColor: "#0b0a10",
} as const;

export const season = {
  year: 2025,
  openNotice: "Orders are open for the 2025 haunt season.",
  closeNote:
    "Orders close a couple of months before Halloween so every build can be finished, tested and delivered in time for opening night.",
} as const;

export const experience = {
  years: 15,
  claim: "over 15 years of haunt experience",
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

/** Layout breakpoints in px (xs is 0). The navigation bar expands at lg. Tailwind's screens use these. */
export const breakpoints = { xs: 0, sm: 576, md: 768, lg: 992, xl: 1200, xxl: 1400 } as const;

export const navigation = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About" },
  { to: "/contact", label: "Contact" },
] as const;

export const pages = {
  home: {
    title: `${brand.name} | Custom Halloween haunt props`,
    description:
      "Custom electric and pneumatic animatronics, haunt electronics, scenic and full haunt builds. Orders are open for the 2025 haunt season.",
    heading: `Welcome to ${brand.name}`,
    servicesHeading: "What we build",
    orderLink: "Order now",
  },
  about: {
    title: `About Us | ${brand.name}`,
    description: `Meet the makers behind ${brand.name}: ${experience.claim} building props, electronics and scenes for haunted attractions.`,
    heading: "About Us",
    paragraphs: [
      `We are a small workshop of haunters who build the things that make guests scream. Between us we have ${experience.claim}: years spent running our own attractions, repairing props at two in the morning before opening night, and learning what survives a season of crowds, fog and rain.`,
      "That is why our props are built to work, not just to look good on a bench. Every animatronic is designed around its scare: the timing, the reach, the sound and the light. Electric figures get motors and linkages sized for thousands of cycles; pneumatic props get valves, cylinders and regulators that hit hard and stay reliable.",
      "We also build the parts guests never see: program boards, relay circuits and lighting control that trigger scares at the right moment, and scenic walls and facades that set the mood before the first actor appears. For owners who want the whole experience, we design and build complete haunts from the floor plan up.",
      "Every commission starts with a conversation about your space, your story and your budget. Tell us what you are dreaming up, and we will tell you how we would build it.",
    ],
    contactPrompt: "Have a project in mind?",
    contactLink: "Send us an enquiry",
  },
  contact: {
    title: `Contact Us | ${brand.name}`,
    description: `Commission a custom haunt prop, animatronic, haunt electronics or a full haunt build from ${brand.name}.`,
    heading: "Contact Us",
    intro:
      "Tell us about your haunt and the prop or build you have in mind. We read every enquiry and answer by e-mail.",
  },
  notFound: {
    title: `Page not found | ${brand.name}`,
    description: "The page you were looking for is not here.",
    heading: "This page has vanished",
    message: "The page you were looking for does not exist, or it crept away into the fog.",
    homeLink: "Back to the home page",
  },
  error: {
    title: `Something went wrong | ${brand.name}`,
    heading: "Something went wrong",
    message: "An unexpected error stopped this page from loading. Please try again in a moment.",
  },
} as const;

/** The contact form's visible words. Limits and field names are in app/enquiry/fields.ts. */
export const contactForm = {
  nameLabel: "Your Name",
  emailLabel: "Your Email",
  messageLabel: "Your Message",
  /** The fixed captcha question; the server checks the answer. */
  captchaQuestion: "Security question: what is the first name of the villain of A Nightmare on Elm Street?",
  submitLabel: "Send Message",
} as const;

/** The status texts of the contact form, exactly as the spec words them. */
export const enquiryMessages = {
  sending: "Sending...",
  success: "Thank you! We will contact you soon.",
  errorPrefix: "Error:",
  genericFailure: "Failed to send message.",
  unreachable: "We could not reach our enquiry service, so your message was not sent. Please try again in a few minutes.",
  timeout: "Our enquiry service did not answer in time, so your message was not sent. Please try again in a few minutes.",
  browserFailure: "Your message could not be sent because the connection failed",
} as const;

export const footer = {
  rights: "All rights reserved.",
} as const;
