import { Link } from "@remix-run/react";
import { notFoundPage } from "~/wording";
import { useSitePath } from "~/site-content/root-data";

export function NotFound() {
  const sitePath = useSitePath();
  return (
    <section className="mx-auto max-w-3xl px-4 py-24 text-center sm:px-6">
      <p className="font-display text-7xl font-bold text-ember-500" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 font-display text-4xl font-bold text-bone-50">{notFoundPage.heading}</h1>
      <p className="mt-4 text-lg text-bone-300">{notFoundPage.message}</p>
      <Link
        to={sitePath("/")}
        className="mt-8 inline-block rounded-md bg-ember-500 px-6 py-3 font-semibold text-night-950 hover:bg-ember-400 focus-visible:outline-offset-4 focus-visible:outline-ember-300"
      >
        {notFoundPage.homeLink}
      </Link>
    </section>
  );
}
