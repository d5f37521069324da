import type { HeadersFunction, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
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
  useMatches,
  useRouteError,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { SiteFooter } from "~/components/SiteFooter";
import { SiteHeader } from "~/components/SiteHeader";
import { brand, errorPage, header, notFoundPage, previewBanner, refusalPage } from "~/wording";
import { businessNameOf, useRootData } from "~/site-content/root-data";
import { rootData } from "~/site-content/pages.server";
import stylesheet from "~/tailwind.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/**
 * The root loader's headers on the document: a preview's `private, no-store` and noindex (pageData) reach the pages
 * that have no headers function of their own (Home, About, Privacy), which otherwise would be sent as shareable.
 */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const loader = ({ request, context }: LoaderFunctionArgs) => rootData(request, context);

// The year and the content do not change during a visit, except when the owner publishes (a post to the Site pages)
// or moves between the preview and the public pages: only then is the server asked again.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formAction }) =>
  currentUrl.searchParams.has("preview") !== nextUrl.searchParams.has("preview") ||
  Boolean(formAction?.startsWith("/inbox/site"));

/** The footer's details when the root's data is missing (its loader failed and the error page shows). */
const fallbackBusiness = { name: brand.name, email: null, phone: null, region: null, links: [], currency: "USD" };

/**
 * A route whose `handle` says `{ hydrate: false }` is sent without the app's scripts (ADR 0042): its document is the
 * whole page, as it is with JavaScript off. Reached by a link from a page that has them, it renders in the running app.
 */
const hydrated = (matches: ReturnType<typeof useMatches>) =>
  !matches.some((match) => (match.handle as { hydrate?: boolean } | undefined)?.hydrate === false);

export function Layout({ children }: { children: ReactNode }) {
  const data = useRootData();
  const scripts = hydrated(useMatches());
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
        {data?.preview ? (
          <div
            role="status"
            className="bg-ghoul-400 px-4 py-2 text-center font-semibold text-night-950"
            data-preview=""
          >
            {previewBanner.text}{" "}
            <a href="/inbox/site" className="underline underline-offset-4">
              {previewBanner.back}
            </a>
          </div>
        ) : null}
        <SiteHeader />
        <main id="main" className="haunt-backdrop flex-1">
          {children}
        </main>
        <SiteFooter
          year={data?.year ?? new Date().getFullYear()}
          business={data?.business ?? fallbackBusiness}
          hasWork={data?.hasWork ?? false}
        />
        {scripts ? (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        ) : null}
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
  const businessName = businessNameOf(useRootData());
  // A refusal with a plain message (a cross-site post, a body over its cap): its reason, with JavaScript on (Remix's data request)
  // and off alike, and a way back to the page.
  if (isRouteErrorResponse(error) && error.status >= 400 && error.status < 500 && typeof error.data === "string") {
    const reason = error.data.trim();
    if (reason) {
      return (
        <>
          <title>{refusalPage.title(businessName)}</title>
          <section className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6">
            <h1 className="font-display text-4xl font-bold text-bone-50">{refusalPage.heading}</h1>
            <p role="alert" className="mt-4 text-lg text-bone-300">
              {reason}
            </p>
            <p className="mt-6">
              <a
                href={location.pathname + location.search}
                className="font-semibold text-ember-300 underline underline-offset-4"
              >
                {refusalPage.back}
              </a>
            </p>
          </section>
        </>
      );
    }
  }
  // Unknown paths are the splat route's full 404 page; this covers a 404 thrown by a loader.
  const copy = isRouteErrorResponse(error) && error.status === 404 ? notFoundPage : errorPage;
  // A database that does not answer (an owner page's 503): why, in the words the page gave.
  const unavailable =
    isRouteErrorResponse(error) && error.status === 503 && typeof error.data === "string" ? error.data.trim() : "";
  return (
    <>
      <title>{copy.title(businessName)}</title>
      <section className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6">
        <h1 className="font-display text-4xl font-bold text-bone-50">{copy.heading}</h1>
        <p className="mt-4 text-lg text-bone-300">{unavailable || copy.message}</p>
      </section>
    </>
  );
}
