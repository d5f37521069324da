import { createHash } from "node:crypto";
import { deferHydration } from "~/pages/defer-hydration.server";
import { applyDocumentHeaders } from "~/pages/headers.server";
import { Page } from "~/pages/page.server";
import { log } from "~/log.server";

/**
 * The one place a rendered document becomes what is sent: made valid, set to hydrate after load, its inline scripts
 * hashed for the Content-Security-Policy from these final bytes, and wrapped in a Page (compressed bodies and ETags).
 */
export function finishDocument(
  rendered: string,
  { status, headers, method, dev = false }: { status: number; headers: Headers; method: string; dev?: boolean },
): Page {
  const valid = moveTrailingIntoBody(rendered);
  // Not under `npm run dev`: the HMR runtime must load before the app's modules, as Remix orders it.
  const html = dev ? valid : rewriteOrKeep(valid);
  applyDocumentHeaders(headers, { scriptHashes: inlineScriptHashes(html), method, status, dev });
  return new Page(status, headers, html);
}

/** A rewrite that throws must not cost the visitor the page: send it as it is. */
function rewriteOrKeep(html: string): string {
  try {
    return deferHydration(html);
  } catch (error) {
    log.error("[pages] the deferred-hydration rewrite failed; the page is sent as rendered", { error });
    return html;
  }
}

const DOCUMENT_END = "</body></html>";

/**
 * React writes what Remix renders beside the document (single fetch's data scripts, in Suspense markers) after
 * `</html>`, which is invalid HTML; browsers move it into `<body>` anyway, so putting it just before `</body>` gives
 * them the same scripts in the same order, in a valid document.
 */
export function moveTrailingIntoBody(html: string): string {
  // React escapes `<` in text and Remix in serialised data, so the first one is the document's own end.
  const end = html.indexOf(DOCUMENT_END);
  if (end < 0) return html;
  const trailing = html.slice(end + DOCUMENT_END.length);
  return trailing ? html.slice(0, end) + trailing + DOCUMENT_END : html;
}

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/**
 * The CSP source (`'sha256-…'`) of every inline script in the document, in order, without repeats. Browsers hash the
 * script's text after the parser has turned CR LF and CR into LF, so that is what is hashed here.
 */
export function inlineScriptHashes(html: string): string[] {
  const sources = new Set<string>();
  for (const [, attributes, text] of html.matchAll(SCRIPT)) {
    // External scripts are allowed by their origin; an empty script never runs, so the browser does not check it.
    if (/\bsrc\s*=/i.test(attributes!) || text === "") continue;
    const digest = createHash("sha256").update(text!.replace(/\r\n?/g, "\n"), "utf8").digest("base64");
    sources.add(`'sha256-${digest}'`);
  }
  return [...sources];
}
