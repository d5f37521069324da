import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import {
  isRouteErrorResponse,
  Links,
  LiveReload,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { SiteFooter } from "~/components/SiteFooter";
import { SiteHeader } from "~/components/SiteHeader";
import { brand, errorPage, header, notFoundPage, refusals } from "~/content/site";
import stylesheet from "~/tailwind.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export function loader({ context }: LoaderFunctionArgs) {
  // The footer's year is decided once, on the server, so the hydrated page shows the same year. The public origin
  // (PUBLIC_URL) is the pages' canonical address (see canonicalUrl).
  return { year: new Date().getFullYear(), publicUrl: context.services.config.publicUrl };
}

// The year never changes during a visit: no need to ask the server again after navigations or posts.
export const shouldRevalidate: ShouldRevalidateFunction = () => false;

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en" className="bg-night-900">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={brand.themeColor} />
        <meta name="color-scheme" content="dark" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col bg-night-900 text-bone-100 antialiased">
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-ember-500 px-4 py-2 font-semibold text-night-950 focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
        >
          {header.skipToContent}
        </a>
        <SiteHeader />
        <main id="main" className="haunt-backdrop flex-1">
          {children}
        </main>
        <SiteFooter year={data?.year ?? new Date().getFullYear()} />
        <ScrollRestoration />
        <Scripts />
        {/* Renders nothing in production; reloads the page on rebuilds under `npm run dev`. */}
        <LiveReload />
      </body>
    </html>
  );
}

export default function App() {
  useEffect(() => {
    // Marks the page as interactive: end-to-end tests wait for it before they click.
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  // A refusal in words (a cross-site post, a body over its cap): its reason, with JavaScript on (Remix's data request)
  // and off alike, and a way back to the page.
  if (isRouteErrorResponse(error) && error.status >= 400 && error.status < 500 && typeof error.data === "string") {
    const reason = error.data.trim();
    if (reason) {
      return (
        <>
          <title>{refusals.title}</title>
          <section className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6">
            <h1 className="font-display text-4xl font-bold text-bone-50">{refusals.heading}</h1>
            <p role="alert" className="mt-4 text-lg text-bone-300">
              {reason}
            </p>
            <p className="mt-6">
              <a
                href={location.pathname + location.search}
                className="font-semibold text-ember-300 underline underline-offset-4"
              >
                {refusals.back}
              </a>
            </p>
          </section>
        </>
      );
    }
  }
  // Unknown paths are the splat route's full 404 page; this covers a 404 thrown by a loader.
  const copy = isRouteErrorResponse(error) && error.status === 404 ? notFoundPage : errorPage;
  return (
    <>
      <title>{copy.title}</title>
      <section className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6">
        <h1 className="font-display text-4xl font-bold text-bone-50">{copy.heading}</h1>
        <p className="mt-4 text-lg text-bone-300">{copy.message}</p>
      </section>
    </>
  );
}
