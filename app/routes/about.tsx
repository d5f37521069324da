import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ResponsivePhoto } from "~/components/ResponsivePhoto";
import { aboutPage } from "~/wording";
import { metaFromLoader, useSitePath } from "~/site-content/root-data";
import { pageData, pageHeadFor } from "~/site-content/pages.server";

export const meta: MetaFunction = metaFromLoader;

/** What About shows of the site: its photo and its text in paragraphs. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { meta, site, preview } = await pageHeadFor("about", request, context);
  return pageData({ meta, photo: site.photos.about, paragraphs: site.aboutParagraphs }, preview);
}

export default function About() {
  const { photo, paragraphs } = useLoaderData<typeof loader>();
  const sitePath = useSitePath();
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:py-16">
      <h1 className="font-display text-4xl font-bold text-bone-50 sm:text-5xl">{aboutPage.heading}</h1>
      {photo ? (
        <ResponsivePhoto
          photo={photo}
          // The article is max-w-3xl with px-4, px-6 from sm.
          sizes="(min-width: 768px) 720px, (min-width: 576px) calc(100vw - 48px), calc(100vw - 32px)"
          className="mt-8 aspect-[3/2] rounded-xl border border-night-600"
        />
      ) : null}
      <div className="mt-8 space-y-5 text-lg leading-relaxed text-bone-100">
        {paragraphs.map((paragraph, index) => (
          <p key={index}>{paragraph}</p>
        ))}
      </div>
      <p className="mt-10 rounded-xl border border-night-600 bg-night-800/70 p-5 text-lg">
        {aboutPage.contactPrompt}{" "}
        <Link
          to={sitePath("/contact")}
          className="font-semibold text-ember-300 underline underline-offset-4 hover:text-ember-400"
        >
          {aboutPage.contactLink}
        </Link>
      </p>
    </article>
  );
}
