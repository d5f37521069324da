import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { HeroCarousel } from "~/components/HeroCarousel";
import { JsonLd } from "~/components/JsonLd";
import { homePage } from "~/content/site";
import { homeMeta } from "~/site-content/page-meta";
import { siteMeta, useSite, useSitePath } from "~/site-content/root-data";
import { pageData, publicSiteFor } from "~/site-content/site.server";
import { localBusiness } from "~/site-content/structured-data.server";

export const meta: MetaFunction = (args) => siteMeta(args, "/", homeMeta);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { site, preview } = await publicSiteFor(request, context);
  return pageData({ jsonLd: localBusiness(site, context.services.config.publicUrl) }, preview);
}

export default function Home() {
  const { jsonLd } = useLoaderData<typeof loader>();
  const site = useSite();
  const sitePath = useSitePath();
  return (
    <>
      <section className="mx-auto grid max-w-6xl gap-10 px-4 pb-12 pt-10 sm:px-6 lg:grid-cols-5 lg:items-center lg:pt-16">
        <div className="lg:col-span-2">
          <h1 className="font-display text-4xl font-bold leading-tight text-bone-50 sm:text-5xl">
            {homePage.heading(site.business.name)}
          </h1>
          <p className="mt-4 text-lg text-bone-300">{site.tagline}</p>
          <div
            className={`mt-6 inline-flex items-start gap-2 rounded-2xl border px-4 py-2 font-semibold ${
              site.orders.open
                ? "border-ember-500/60 bg-ember-500/10 text-ember-300"
                : "border-night-500 bg-night-800/80 text-bone-100"
            }`}
            data-season-notice={site.orders.open ? "open" : "closed"}
          >
            {/* Pinned to the first line: it stays put however the notice's text wraps. */}
            <span
              aria-hidden="true"
              className={`mt-2 h-2 w-2 shrink-0 rounded-full ${
                site.orders.open ? "bg-ghoul-400 shadow-[0_0_8px_2px_rgb(143_209_79_/_0.6)]" : "bg-bone-400"
              }`}
            />
            <p>
              {site.orders.notice}
              {site.orders.detail ? (
                <span className="block font-normal" data-season-detail="">
                  {site.orders.detail}
                </span>
              ) : null}
            </p>
          </div>
          <div className="mt-8">
            <Link
              to={sitePath("/contact")}
              className="inline-block rounded-md bg-ember-500 px-7 py-3 text-lg font-semibold text-night-950 shadow-[0_0_30px_-5px_rgb(242_140_40_/_0.6)] hover:bg-ember-400 focus-visible:outline-offset-4 focus-visible:outline-ember-300"
            >
              {homePage.orderLink}
            </Link>
          </div>
        </div>
        <div className="lg:col-span-3">
          <HeroCarousel />
        </div>
      </section>

      <section aria-labelledby="services-heading" className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
        <h2 id="services-heading" className="font-display text-3xl font-bold text-bone-50">
          {homePage.servicesHeading}
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-services="">
          {site.services.map((service, index) => (
            <li key={index} className="rounded-xl border border-night-600 bg-night-800/70 p-5">
              <h3 className="font-display text-xl font-semibold text-ember-300">{service.name}</h3>
              <p className="mt-2 text-bone-300">{service.detail}</p>
            </li>
          ))}
        </ul>
        {site.ordersNote ? (
          <p className="mt-8 max-w-3xl border-l-4 border-ghoul-400 pl-4 text-bone-100" data-close-note="">
            {site.ordersNote}
          </p>
        ) : null}
      </section>
      <JsonLd data={jsonLd} />
    </>
  );
}
