/** The About Us page's own words (its text and the years of experience are the owner's content: app/site-content/). */
export const aboutPage = {
  title: (businessName: string) => `About Us | ${businessName}`,
  description: (businessName: string, experienceClaim: string) =>
    `Meet the makers behind ${businessName}: ${experienceClaim} building props, electronics and scenes for haunted attractions.`,
  heading: "About Us",
  contactPrompt: "Have a project in mind?",
  contactLink: "Send us an enquiry",
} as const;
