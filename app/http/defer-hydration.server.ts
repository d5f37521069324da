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
 * - each `<link rel="modulepreload">` to `rel="${DEFERRED_REL}"`, which browsers do not fetch, and
 * - the bootstrap's static `import`s to dynamic ones that run after the window's `load` event and the next painted
 *   frame (or half a second, in a background tab), when the bootstrap first turns those links back into modulepreloads so the module graph downloads in
 *   parallel, not as a waterfall. The bootstrap's body runs in an async function (not top-level `await`), so every
 *   browser that runs modules runs it.
 *
 * When the markup is not the shape this expects (a Remix upgrade), the document is returned unchanged: pages hydrate
 * as before, and the unit test that runs this against the built server's real output fails.
 */
export const DEFERRED_REL = "x-deferred-modulepreload";

const PRELOAD_LINK = /<link rel="modulepreload" href="([^"]+)"\/>/g;
const MODULE_SCRIPT = /(<script\b[^>]*\btype="module"[^>]*>)([\s\S]*?)(<\/script>)/g;
const STATIC_IMPORT = /^import (?:\* as (\w+) from )?("[^"\n]+");\n?/gm;

// After `load`, wait for the next frame to be painted too: a fast connection can finish loading before the first paint.
// Browsers pause frames in background tabs, so half a second is the limit: a page opened there still hydrates.
const afterLoadAndPaint = [
  'await new Promise((go) => document.readyState === "complete" ? go() : addEventListener("load", go, { once: true }));',
  "await new Promise((go) => { requestAnimationFrame(() => setTimeout(go)); setTimeout(go, 500); });",
].join("\n");
const restorePreloads = `for (const link of document.querySelectorAll('link[rel="${DEFERRED_REL}"]')) link.rel = "modulepreload";`;

export function deferHydration(html: string): string {
  // Remix's bootstrap is the module script that registers the route modules.
  const bootstrap = [...html.matchAll(MODULE_SCRIPT)].find((script) => script[2]!.includes("window.__remixRouteModules"));
  if (!bootstrap) return html;
  const [whole, open, body, close] = bootstrap as unknown as [string, string, string, string];

  const bindings: string[] = [];
  const specifiers: string[] = [];
  const rest = body.replace(STATIC_IMPORT, (_line, binding: string | undefined, specifier: string) => {
    bindings.push(binding ?? "");
    specifiers.push(specifier);
    return "";
  });
  if (specifiers.length === 0) return html;

  const imports = `const [${bindings.join(", ")}] = await Promise.all([${specifiers.map((s) => `import(${s})`).join(", ")}]);`;
  const deferred = `${open}(async () => {\n${afterLoadAndPaint}\n${restorePreloads}\n${imports}\n${rest}\n})();${close}`;
  const start = bootstrap.index!;
  const withBootstrap = html.slice(0, start) + deferred + html.slice(start + whole.length);
  return withBootstrap.replace(PRELOAD_LINK, `<link rel="${DEFERRED_REL}" href="$1"/>`);
}
