import { request } from "node:http";
import { parseDatabaseUrl } from "../../app/config.server";
import { publishContent } from "../../app/site-content/publish.server";
import type { SiteContent } from "../../app/site-content/schema.server";
import { openInboxStore } from "../../app/store/store.server";

/** A public page of the built site as a search engine or a CDN reads it: its words, meta description and JSON-LD. */
export interface PublicPage {
  status: number;
  etag: string | undefined;
  /**
   * Answered by the page cache (server/page-cache.ts) rather than rendered by Remix. The bytes and header values are
   * the same either way (byte-identical repeats); what tells them apart is the order of the header lines: Remix's
   * answer goes through a fetch Headers object, which sorts them, while the cache writes the kept page's headers
   * and then its own (Vary, ETag, Content-Encoding, Content-Length) after them.
   */
  fromCache: boolean;
  html: string;
  description: string | undefined;
  jsonLd: Record<string, unknown>[];
}

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

export function getPage(siteUrl: string, path = "/"): Promise<PublicPage> {
  return new Promise((resolve, reject) => {
    const req = request(`${siteUrl}${path}`, { agent: false, signal: AbortSignal.timeout(10_000) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const html = Buffer.concat(chunks).toString("utf8");
        const names = res.rawHeaders.filter((_, index) => index % 2 === 0).map((name) => name.toLowerCase());
        const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1];
        resolve({
          status: res.statusCode!,
          etag: res.headers.etag,
          fromCache: names.indexOf("etag") > names.indexOf("x-frame-options"),
          html,
          description: description === undefined ? undefined : unescapeHtml(description),
          jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
            ([, json]) => JSON.parse(json!) as Record<string, unknown>,
          ),
        });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/** The LocalBusiness's service names in a page's JSON-LD. */
export function jsonLdServices(page: PublicPage): string[] {
  const business = page.jsonLd.find((data) => data["@type"] === "LocalBusiness") as
    { hasOfferCatalog?: { itemListElement?: { itemOffered: { name: string } }[] } } | undefined;
  return business?.hasOfferCatalog?.itemListElement?.map((offer) => offer.itemOffered.name) ?? [];
}

/** Publishes `content` as the next version, as the Site page does, through a store of its own on `databaseUrl`. */
export async function publishSite(databaseUrl: string, content: SiteContent, actor = "test@grimforge.example") {
  const store = await openInboxStore(parseDatabaseUrl(databaseUrl)!, { timeoutMs: 10_000 });
  try {
    const draft = await store.siteDraft();
    const result = await publishContent(store, content, draft.revision, actor);
    if (!result.ok) throw new Error(`publish refused: ${result.reason}`);
    return result.version;
  } finally {
    await store.close();
  }
}
