/** The About Us page. */
import { brand } from "./shared";

const experienceYears = 15;

export const experience = {
  years: experienceYears,
  claim: `over ${experienceYears} years of haunt experience`,
} as const;

export const aboutPage = {
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
} as const;
