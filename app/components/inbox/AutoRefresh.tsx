import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/** How often the page asks again while something is encoding: with JavaScript, and (a full reload) without. */
const everyMs = 2000;
const withoutScriptSeconds = 10;

/**
 * Keeps a page current while its data is still changing on the server (the Photos page while photos encode). With
 * JavaScript its loader runs again every 2 s and nothing typed is touched. Without, the page reloads itself to
 * `reloadTo`, but only when given one (the page just after a change, and the reloads after it): a page opened to edit
 * is never reloaded under the owner's typing. The <noscript> is plain text to a browser with scripting, so a page with
 * JavaScript never reloads.
 */
export function AutoRefresh({ active, reloadTo }: { active: boolean; reloadTo: string | null }) {
  const revalidator = useRevalidator();
  const { revalidate } = revalidator;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidate();
    }, everyMs);
    return () => clearInterval(timer);
  }, [active, revalidate, revalidator.state]);
  if (!active || !reloadTo) return null;
  return (
    <noscript>
      <meta httpEquiv="refresh" content={`${withoutScriptSeconds}; url=${reloadTo}`} />
    </noscript>
  );
}
