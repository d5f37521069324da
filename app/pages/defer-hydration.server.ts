/**
 * Starts hydration after the page has loaded instead of while it is still arriving.
 *
 * Remix's `<Scripts>` puts ~100 kB of modules on the wire at parse time: `modulepreload` links plus an inline
 * `type="module"` bootstrap whose static `import`s fetch the route modules. On a slow phone those downloads share the
 * connection with the stylesheet and the first carousel image, and Lighthouse's simulation counts every
 * high-priority script that finished before the first paint as render-blocking (it cannot tell that a module did not
 * run before the paint). Every page works without JavaScript (the form posts, the menu is a `<details>`, the first
 * slide is in the HTML), so nothing needs those bytes before the page is on screen.
 *
 * The rewrite keeps every element `<Scripts>` rendered, so React hydrates the same tree; it only changes
 * - each `<link rel="modulepreload">` to `rel="${DEFERRED_REL}"`: a link type valid in `<body>` that fetches nothing
 *   (a DNS lookup of our own origin, already done), and
 * - the bootstrap's static `import`s to dynamic ones that run after the window's `load` event (or 3 s after
 *   DOMContentLoaded, so one stalled image cannot keep the page from becoming interactive) and the next painted frame
 *   (or half a second, in a background tab), when the bootstrap first turns those links back into modulepreloads so
 *   the module graph downloads in parallel, not as a waterfall. The bootstrap's body runs in an async function (not
 *   top-level `await`), so every browser that runs modules runs it.
 *
 * Anything it does not fully understand (no bootstrap, an import other than `import * as x from "…"` or
 * `import "…"`, a modulepreload link with another attribute) leaves the whole document unchanged: the page then
 * hydrates as Remix wrote it, never half rewritten. The unit test that runs this against the built server's real
 * output fails when a Remix upgrade changes the markup.
 */
export const DEFERRED_REL = "dns-prefetch";

/** After this long from DOMContentLoaded, hydration starts even if the window's `load` has not come. */
export const LOAD_WAIT_LIMIT_MS = 3_000;

const PRELOAD_LINK = /<link rel="modulepreload" href="([^"]+)"\/>/g;
const ANY_PRELOAD = /<link\b[^>]*\bmodulepreload\b/g;
const MODULE_SCRIPT = /(<script\b[^>]*\btype="module"[^>]*>)([\s\S]*?)(<\/script>)/g;
const STATIC_IMPORT = /^import (?:\* as (\w+) from )?("[^"\n]+");\n?/gm;
// Any static import left after the rewrite (a named or default import, an import split over lines).
const LEFT_IMPORT = /(^|[;\s])import(\s*[{*"']|\s+\w)/m;

const waitForLoad = [
  "await new Promise((go) => {",
  '  if (document.readyState === "complete") return go();',
  '  addEventListener("load", go, { once: true });',
  `  const limit = () => setTimeout(go, ${LOAD_WAIT_LIMIT_MS});`,
  '  if (document.readyState === "loading") addEventListener("DOMContentLoaded", limit, { once: true });',
  "  else limit();",
  "});",
].join("\n");
// After `load`, wait for the next frame to be painted too: a fast connection can finish loading before the first paint.
// Browsers pause frames in background tabs, so half a second is the limit: a page opened there still hydrates.
const waitForPaint =
  "await new Promise((go) => { requestAnimationFrame(() => setTimeout(go)); setTimeout(go, 500); });";
const restorePreloads = `for (const link of document.querySelectorAll('link[rel="${DEFERRED_REL}"]')) link.rel = "modulepreload";`;

export function deferHydration(html: string): string {
  // Remix's bootstrap is the module script that registers the route modules.
  const bootstrap = [...html.matchAll(MODULE_SCRIPT)].find((script) =>
    script[2]!.includes("window.__remixRouteModules"),
  );
  if (!bootstrap) return html;
  const [whole, open, body, close] = bootstrap as unknown as [string, string, string, string];

  const bindings: string[] = [];
  const specifiers: string[] = [];
  const rest = body.replace(STATIC_IMPORT, (_line, binding: string | undefined, specifier: string) => {
    bindings.push(binding ?? "");
    specifiers.push(specifier);
    return "";
  });
  if (specifiers.length === 0 || LEFT_IMPORT.test(rest)) return html;
  // Every modulepreload must be one this rewrite understands, or none is changed; and the bootstrap must find only
  // the links it changed when it turns them back.
  if (html.includes(`rel="${DEFERRED_REL}"`)) return html;
  const preloads = html.match(ANY_PRELOAD)?.length ?? 0;
  if (preloads !== (html.match(PRELOAD_LINK)?.length ?? 0)) return html;

  const imports = `const [${bindings.join(", ")}] = await Promise.all([${specifiers.map((s) => `import(${s})`).join(", ")}]);`;
  const deferred = `${open}(async () => {\n${waitForLoad}\n${waitForPaint}\n${restorePreloads}\n${imports}\n${rest}\n})();${close}`;
  const start = bootstrap.index!;
  const withBootstrap = html.slice(0, start) + deferred + html.slice(start + whole.length);
  return withBootstrap.replace(PRELOAD_LINK, `<link rel="${DEFERRED_REL}" href="$1"/>`);
}
