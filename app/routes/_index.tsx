import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Link, useLoaderData } from "@remix-run/react";
import { HeroCarousel } from "~/components/HeroCarousel";
import { carouselArt, homePage } from "~/wording";
import { metaFromLoader, useSitePath } from "~/site-content/root-data";
import { pageHeadFor, previewHeaders, waitlistFormFor } from "~/site-content/pages.server";

export const meta: MetaFunction = metaFromLoader;

/** A preview's headers, or no-store while the page carries one visitor's waitlist form (its form token). */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** What Home shows of the site: the intro, the season notice, the services and the carousel's photos and captions. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { meta, site, preview } = await pageHeadFor("home", request, context);
  const { business, tagline, orders, services, ordersNote, photos } = site;
  // "Tell me when orders open" while orders are closed (docs/waitlist.md): markup made on the server, no script.
  const waitlist = preview ? null : await waitlistFormFor(context, site);
  return data(
    {
      meta,
      businessName: business.name,
      tagline,
      orders,
      // What the cards show: words formatted on the server (the JSON-LD's amount stays on the server).
      services: services.map(({ name, detail, startingPrice, leadTime, work }) => ({
        name,
        detail,
        startingPrice,
        leadTime,
        work,
      })),
      ordersNote,
      carousel: { slides: photos.slides, captions: photos.captions, art: carouselArt },
      waitlist,
    },
    { headers: preview ? previewHeaders : waitlist ? { "Cache-Control": "no-store" } : {} },
  );
}

export default function Home() {
  const site = useLoaderData<typeof loader>();
  const sitePath = useSitePath();
  return (
    <>
      {/* Top-aligned, not centred beside the carousel: text a slow page has painted stays put while the rest arrives. */}
      <section className="mx-auto grid max-w-6xl gap-10 px-4 pb-12 pt-10 sm:px-6 lg:grid-cols-5 lg:items-start lg:pt-16">
        <div className="lg:col-span-2">
          <h1 className="font-display text-4xl font-bold leading-tight text-bone-50 sm:text-5xl">
            {homePage.heading(site.businessName)}
          </h1>
          <p className="mt-4 text-lg text-bone-300">{site.tagline}</p>
          <div
            // Its look, open or closed, follows data-season-notice (app/tailwind.css).
            className="season-notice"
            data-season-notice={site.orders.open ? "open" : "closed"}
          >
            {/* Pinned to the first line: it stays put however the notice's text wraps. */}
            <span aria-hidden="true" className="season-notice-light" />
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
            <Link to={sitePath("/contact")} className="order-link">
              {homePage.orderLink}
            </Link>
          </div>
          {/* Markup made on the server (app/enquiry/waitlist-form.server.tsx): the form adds no script to the page. */}
          {site.waitlist && <div dangerouslySetInnerHTML={{ __html: site.waitlist }} />}
        </div>
        <div className="lg:col-span-3">
          <HeroCarousel photos={site.carousel} />
        </div>
      </section>

      <section aria-labelledby="services-heading" className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
        <h2 id="services-heading" className="font-display text-3xl font-bold text-bone-50">
          {homePage.servicesHeading}
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-services="">
          {site.services.map((service, index) => (
            // Two rows shared with the cards beside it (a subgrid): each card's price starts on the same line however
            // long the details above are.
            <li
              key={index}
              className="row-span-2 grid grid-rows-subgrid gap-0 rounded-xl border border-night-600 bg-night-800/70 p-5"
            >
              <div>
                <h3 className="font-display text-xl font-semibold text-ember-300">{service.name}</h3>
                <p className="mt-2 text-bone-300">{service.detail}</p>
              </div>
              {service.startingPrice || service.leadTime || service.work ? (
                <div className="mt-4 border-t border-night-600 pt-3">
                  {service.startingPrice ? (
                    <p className="text-lg font-semibold text-bone-50" data-service-price="">
                      {service.startingPrice}
                    </p>
                  ) : null}
                  {service.leadTime ? (
                    <p className="text-sm text-bone-300" data-service-lead-time="">
                      {service.leadTime}
                    </p>
                  ) : null}
                  {service.work ? (
                    <Link
                      to={sitePath(service.work.path)}
                      className="mt-2 inline-block font-semibold text-ember-300 underline underline-offset-4 hover:text-bone-50"
                    >
                      {service.work.label}
                      <span className="sr-only">{service.work.labelEnd}</span>
                    </Link>
                  ) : null}
                </div>
              ) : null}
            </li>
          ))}
        </ul>
        {site.ordersNote ? (
          <p className="mt-8 max-w-3xl border-l-4 border-ghoul-400 pl-4 text-bone-100" data-close-note="">
            {site.ordersNote}
          </p>
        ) : null}
      </section>
    </>
  );
}
