import { Link } from "@remix-run/react";
import { brand, footer, privacyLinks } from "~/content/site";

/** The year comes from the root loader, so the server render and the hydrated page always agree. */
export function SiteFooter({ year }: { year: number }) {
  return (
    <footer className="border-t border-night-600/80 bg-night-950">
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-8 text-sm text-bone-300 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p className="font-display text-base text-bone-100">{brand.name}</p>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-6">
          <p data-copyright="">
            &copy; {year} {brand.name}. {footer.rights}
          </p>
          <Link to="/privacy" className="text-bone-100 underline underline-offset-4 hover:text-ember-300">
            {privacyLinks.footer}
          </Link>
        </div>
      </div>
    </footer>
  );
}
