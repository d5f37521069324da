import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { HeroCarousel } from "~/components/HeroCarousel";
import { brand, homePage, pageMeta, season, services } from "~/content/site";
import { canonicalUrl } from "~/public-url";

export const meta: MetaFunction = (args) => pageMeta(homePage, canonicalUrl(args, "/"));

export default function Home() {
  return (
    <>
      <section className="mx-auto grid max-w-6xl gap-10 px-4 pb-12 pt-10 sm:px-6 lg:grid-cols-5 lg:items-center lg:pt-16">
        <div className="lg:col-span-2">
          <h1 className="font-display text-4xl font-bold leading-tight text-bone-50 sm:text-5xl">{homePage.heading}</h1>
          <p className="mt-4 text-lg text-bone-300">{brand.tagline}</p>
          <p
            className="mt-6 inline-flex items-start gap-2 rounded-full border border-ember-500/60 bg-ember-500/10 px-4 py-2 font-semibold text-ember-300"
            data-season-notice=""
          >
            {/* Pinned to the first line: it stays put however the notice's text wraps. */}
            <span
              aria-hidden="true"
              className="mt-2 h-2 w-2 shrink-0 rounded-full bg-ghoul-400 shadow-[0_0_8px_2px_rgb(143_209_79_/_0.6)]"
            />
            {season.openNotice}
          </p>
          <div className="mt-8">
            <Link
              to="/contact"
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
          {services.map((service) => (
            <li key={service.name} className="rounded-xl border border-night-600 bg-night-800/70 p-5">
              <h3 className="font-display text-xl font-semibold text-ember-300">{service.name}</h3>
              <p className="mt-2 text-bone-300">{service.detail}</p>
            </li>
          ))}
        </ul>
        <p className="mt-8 max-w-3xl border-l-4 border-ghoul-400 pl-4 text-bone-100" data-close-note="">
          {season.closeNote}
        </p>
      </section>
    </>
  );
}
