import { useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/** How often the page asks again while something is encoding: with JavaScript, and (a full reload) without. */
const everyMs = 2000;
const withoutScriptSeconds = 10;

/** A revalidation cut short by the owner's own click: Remix's single fetch rejects it unhandled (remix-run/react-router#14761). */
function ignoreInterruptedRevalidation(event: PromiseRejectionEvent) {
  const reason: unknown = event.reason;
  if (reason instanceof DOMException && reason.name === "AbortError") event.preventDefault();
}

/**
 * Keeps a page current while its data is still changing on the server (the Photos page while photos encode). With
 * JavaScript its loader runs again every 2 s and nothing typed is touched; never while a form is being sent or a link
 * followed (asking then would interrupt it). Without, the page reloads itself to `reloadTo`, but only when given one
 * (the page just after a change, and the reloads after it): a page opened to edit is never reloaded under the owner's
 * typing. The <noscript> is plain text to a browser with scripting, so a page with JavaScript never reloads.
 */
export function AutoRefresh({ active, reloadTo }: { active: boolean; reloadTo: string | null }) {
  const revalidator = useRevalidator();
  const { revalidate } = revalidator;
  // A press's navigation stops the timer in the same task (React runs a discrete event's effects at once).
  const idle = useNavigation().state === "idle";
  useEffect(() => {
    if (!active || !idle) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidate();
    }, everyMs);
    return () => clearInterval(timer);
  }, [active, idle, revalidate, revalidator.state]);
  // Kept while the page is open: the rejection of a cut-short revalidation comes after the press.
  useEffect(() => {
    window.addEventListener("unhandledrejection", ignoreInterruptedRevalidation);
    return () => window.removeEventListener("unhandledrejection", ignoreInterruptedRevalidation);
  }, []);
  if (!active || !reloadTo) return null;
  return (
    <noscript>
      <meta httpEquiv="refresh" content={`${withoutScriptSeconds}; url=${reloadTo}`} />
    </noscript>
  );
}
