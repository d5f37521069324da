import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFERRED_REL, deferHydration, LOAD_WAIT_LIMIT_MS } from "~/pages/defer-hydration.server";
import { startSite, type SiteServer } from "../support/site-server";

// The shape of what Remix 2.17's <Scripts> renders at the end of <body> (single fetch, lazy route discovery).
const preloads =
  '<link rel="modulepreload" href="/build/entry.client-A.js"/><link rel="modulepreload" href="/build/_shared/chunk-B.js"/>';
const contextScript = '<script>window.__remixContext = {"url":"/"};</script>';
const bootstrap = [
  '<script type="module" async="">;',
  'import * as route0 from "/build/root-C.js";',
  'import * as route1 from "/build/routes/_index-D.js";',
  'window.__remixManifest = {"imports": ["/build/_shared/chunk-B.js"]};',
  'window.__remixRouteModules = {"root":route0,"routes/_index":route1};',
  "",
  'import("/build/entry.client-A.js");</script>',
].join("\n");
const page = `<!DOCTYPE html><html><head></head><body><main>Hi</main>${preloads}${contextScript}${bootstrap}</body></html>`;

describe("deferHydration", () => {
  const deferred = deferHydration(page);

  it("turns every modulepreload into a link valid in <body> that fetches nothing, keeping the element and its href", () => {
    expect(DEFERRED_REL).toBe("dns-prefetch");
    expect(deferred).not.toContain('rel="modulepreload"');
    expect(deferred).toContain(`<link rel="${DEFERRED_REL}" href="/build/entry.client-A.js"/>`);
    expect(deferred).toContain(`<link rel="${DEFERRED_REL}" href="/build/_shared/chunk-B.js"/>`);
  });

  it("replaces the bootstrap's static imports with dynamic ones that wait for load and a painted frame", () => {
    const body = deferred.slice(deferred.indexOf('type="module"'));
    expect(body).not.toMatch(/^import \* as/m);
    const waits = body.indexOf('addEventListener("load"');
    // A stalled image must not hold hydration back forever: load, or a limit counted from DOMContentLoaded.
    expect(body).toContain(`setTimeout(go, ${LOAD_WAIT_LIMIT_MS})`);
    expect(body).toContain('addEventListener("DOMContentLoaded", limit');
    expect(LOAD_WAIT_LIMIT_MS).toBe(3_000);
    const frame = body.indexOf("requestAnimationFrame");
    const restore = body.indexOf('link.rel = "modulepreload"');
    const imports = body.indexOf(
      'const [route0, route1] = await Promise.all([import("/build/root-C.js"), import("/build/routes/_index-D.js")]);',
    );
    expect([waits, frame, restore, imports].every((i) => i > 0)).toBe(true);
    expect(waits < frame && frame < restore && restore < imports).toBe(true);
    // The rest of Remix's bootstrap is untouched, so the route modules are registered before the entry starts.
    expect(body).toContain('window.__remixRouteModules = {"root":route0,"routes/_index":route1};');
    expect(body).toContain('import("/build/entry.client-A.js");\n})();</script>');
  });

  it("runs the bootstrap in an async function, so no browser that runs modules needs top-level await", () => {
    const body = deferred.slice(deferred.indexOf('type="module" async="">') + 'type="module" async="">'.length);
    expect(body.startsWith("(async () => {\n")).toBe(true);
    expect(body.endsWith("\n})();</script></body></html>")).toBe(true);
  });

  it("keeps every element, attribute and the context script, so React hydrates the same tree", () => {
    const tags = (html: string) => html.match(/<[a-z]+/g);
    expect(tags(deferred)).toEqual(tags(page));
    expect(deferred).toContain(contextScript);
    expect(deferred).toContain('<script type="module" async="">');
  });

  it("keeps side-effect imports, without a binding", () => {
    const withManifestImport = page.replace('async="">;', 'async="">import "/build/manifest-E.js";');
    expect(deferHydration(withManifestImport)).toContain(
      'const [, route0, route1] = await Promise.all([import("/build/manifest-E.js"), import("/build/root-C.js")',
    );
  });

  it("rewrites Remix's bootstrap, not another module script before it", () => {
    const other = '<script type="module">import "/elsewhere.js";</script>';
    const withOther = page.replace("<main>", `${other}<main>`);
    const result = deferHydration(withOther);
    expect(result).toContain(other);
    expect(result).toContain("const [route0, route1] = await Promise.all(");
  });

  it("returns a document it does not recognise unchanged", () => {
    const noBootstrap = `<!DOCTYPE html><html><body>${preloads}${contextScript}</body></html>`;
    expect(deferHydration(noBootstrap)).toBe(noBootstrap);
    const noImports = page.replace(/^import \* as .*\n/gm, "");
    expect(deferHydration(noImports)).toBe(noImports);
  });

  // Half a rewrite is worse than none: a static import left inside the async function is a syntax error, and a
  // preload left as it was is fetched before the page has loaded.
  it.each([
    ["a named import", page.replace('async="">;', 'async="">;\nimport { a } from "/build/a.js";')],
    ["a default import", page.replace('async="">;', 'async="">;\nimport a from "/build/a.js";')],
    ["an import split over lines", page.replace('async="">;', 'async="">;\nimport {\n  a,\n} from "/build/a.js";')],
    [
      "two imports on one line",
      page.replace(
        'import * as route0 from "/build/root-C.js";',
        'import * as route0 from "/build/root-C.js"; import "/x.js";',
      ),
    ],
    [
      "a preload link with another attribute",
      page.replace('href="/build/_shared/chunk-B.js"/>', 'href="/build/_shared/chunk-B.js" crossorigin="anonymous"/>'),
    ],
    [
      "a preload link in another shape",
      page.replace(
        '<link rel="modulepreload" href="/build/entry.client-A.js"/>',
        '<link href="/build/entry.client-A.js" rel="modulepreload">',
      ),
    ],
    [
      "a link that already has the deferred rel",
      page.replace("<main>", '<link rel="dns-prefetch" href="//elsewhere.example"/><main>'),
    ],
  ])("sends the page unchanged when it meets %s", (_shape, html) => {
    expect(deferHydration(html)).toBe(html);
  });
});

// The real <Scripts> output changes with Remix: this fails if an upgrade changes it so that the rewrite no longer applies.
describe("the built server's documents", () => {
  let site: SiteServer;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site?.stop();
  });

  it.each(["/", "/about", "/contact", "/no-such-page"])(
    "%s: no script is fetched before the page has loaded",
    async (path) => {
      const html = await (await fetch(`${site.url}${path}`)).text();
      expect(html).not.toContain('rel="modulepreload"');
      expect(html).toMatch(new RegExp(`<link rel="${DEFERRED_REL}" href="/build/entry\\.client-[\\w-]+\\.js"/>`));
      const moduleScripts = html.match(/<script\b[^>]*type="module"[^>]*>[\s\S]*?<\/script>/g) ?? [];
      expect(moduleScripts).toHaveLength(1);
      const [bootstrap] = moduleScripts as [string];
      expect(bootstrap).toMatch(/<script type="module"/);
      expect(bootstrap).not.toMatch(/^\s*import\s/m);
      expect(bootstrap).toContain('addEventListener("load"');
      expect(bootstrap).toMatch(/await Promise\.all\(\[import\("\/build\/root-[\w-]+\.js"\)/);
      expect(bootstrap).toMatch(/^<script[^>]*>\(async \(\) => \{\n/);
      expect(bootstrap).toMatch(/import\("\/build\/entry\.client-[\w-]+\.js"\);\n\}\)\(\);<\/script>$/);
    },
  );
});
