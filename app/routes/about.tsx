import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { aboutPage, pageMeta } from "~/content/site";
import { canonicalUrl } from "~/public-url";

export const meta: MetaFunction = (args) => pageMeta(aboutPage, canonicalUrl(args, "/about"));

export default function About() {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:py-16">
      <h1 className="font-display text-4xl font-bold text-bone-50 sm:text-5xl">{aboutPage.heading}</h1>
      <div className="mt-8 space-y-5 text-lg leading-relaxed text-bone-100">
        {aboutPage.paragraphs.map((paragraph) => (
          <p key={paragraph.slice(0, 24)}>{paragraph}</p>
        ))}
      </div>
      <p className="mt-10 rounded-xl border border-night-600 bg-night-800/70 p-5 text-lg">
        {aboutPage.contactPrompt}{" "}
        <Link to="/contact" className="font-semibold text-ember-300 underline underline-offset-4 hover:text-ember-400">
          {aboutPage.contactLink}
        </Link>
      </p>
    </article>
  );
}
