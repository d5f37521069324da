import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/** How often the page asks again while something is encoding: with JavaScript, and (longer, a full reload) without. */
const everyMs = 2000;
const withoutScriptSeconds = 5;

/**
 * Keeps a page current while its data is still changing on the server (the Photos page while photos encode): with
 * JavaScript its loader runs again every 2 s; without, a refresh that only a browser without scripting reads (the
 * <noscript> is plain text to one with scripting, so a page with JavaScript is never reloaded under the owner).
 */
export function AutoRefresh({ active }: { active: boolean }) {
  const revalidator = useRevalidator();
  const { revalidate } = revalidator;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidate();
    }, everyMs);
    return () => clearInterval(timer);
  }, [active, revalidate, revalidator.state]);
  if (!active) return null;
  return (
    <noscript>
      <meta httpEquiv="refresh" content={String(withoutScriptSeconds)} />
    </noscript>
  );
}
