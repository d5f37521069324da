import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import fresh from "fresh";
import Negotiator from "negotiator";

export type Encoding = "br" | "gzip" | "identity";

// Quality 5 of 11 costs a third of a millisecond for a page and is already smaller than the compression middleware's
// default (quality 4); pages that are kept pay once for 11 (about 10 ms, and 10 % fewer bytes).
const BROTLI_FAST = 5;

interface Representation {
  body: Buffer;
  etag: string;
}

/**
 * A finished document: status, headers and body, with each encoding of the body (brotli, gzip, none) made once and
 * given its own strong ETag (a hash of those bytes). Encoded lazily, except for pages about to be cached, which are
 * encoded at once, with brotli's best setting, since the work is then shared by every later request.
 */
export class Page {
  /** Lower-case names; Set-Cookie, should a page ever set one, as a list. */
  readonly headers: Record<string, string | string[]>;
  private readonly representations = new Map<Encoding, Representation>();
  private brotliQuality = BROTLI_FAST;

  constructor(
    readonly status: number,
    headers: Headers,
    html: string,
  ) {
    this.headers = Object.fromEntries(headers);
    const cookies = headers.getSetCookie();
    if (cookies.length > 0) this.headers["set-cookie"] = cookies;
    this.representations.set("identity", represent(Buffer.from(html, "utf8")));
  }

  /** Encodes every representation now, brotli at its best: for a page that is kept and served many times. */
  encodeForKeeping(): this {
    if (!this.representations.has("br")) this.brotliQuality = constants.BROTLI_MAX_QUALITY;
    this.representation("br");
    this.representation("gzip");
    return this;
  }

  /** The bytes held for this page: its bodies, encoded or not. */
  get byteLength(): number {
    let bytes = 0;
    for (const { body } of this.representations.values()) bytes += body.length;
    return bytes;
  }

  representation(encoding: Encoding): Representation {
    let found = this.representations.get(encoding);
    if (!found) {
      const identity = this.representations.get("identity")!.body;
      found = represent(encoding === "br" ? brotli(identity, this.brotliQuality) : gzipSync(identity));
      this.representations.set(encoding, found);
    }
    return found;
  }
}

function brotli(body: Buffer, quality: number): Buffer {
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

function represent(body: Buffer): Representation {
  return { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
}

const encodings: Encoding[] = ["br", "gzip", "identity"];

/** Brotli when the client takes it at least as gladly as gzip, then gzip, else the plain bytes (Express's negotiator). */
export function preferredEncoding(acceptEncoding: string | null | undefined): Encoding {
  const negotiator = new Negotiator({ headers: { "accept-encoding": acceptEncoding ?? undefined } });
  // negotiator 1.x takes the tie-break order as `preferred`; its @types (0.6) do not know the option yet.
  const encoding = negotiator.encoding as (
    available: Encoding[],
    options: { preferred: Encoding[] },
  ) => string | undefined;
  return (encoding.call(negotiator, encodings, { preferred: encodings }) as Encoding | undefined) ?? "identity";
}

/** If-None-Match compares weakly: `W/"x"` matches `"x"`; `*` matches any current representation (Express's fresh). */
export function etagMatches(ifNoneMatch: string | null | undefined, etag: string): boolean {
  return ifNoneMatch ? fresh({ "if-none-match": ifNoneMatch }, { etag }) : false;
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[]>;
  /** null for 304 and HEAD. */
  body: Buffer | null;
}

/** What to send for one request: the negotiated representation, or 304 when the client already has it. */
export function replyFor(
  page: Page,
  request: { method: string; acceptEncoding?: string | null; ifNoneMatch?: string | null },
): Reply {
  const encoding = preferredEncoding(request.acceptEncoding);
  const { body, etag } = page.representation(encoding);
  const headers: Reply["headers"] = { ...page.headers, vary: "Accept-Encoding", etag };
  if (encoding !== "identity") headers["content-encoding"] = encoding;
  // Only a response that would be a 2xx can become 304 (RFC 9110, 13.1.2).
  if (page.status >= 200 && page.status < 300 && etagMatches(request.ifNoneMatch, etag)) {
    delete headers["content-type"];
    return { status: 304, headers, body: null };
  }
  headers["content-length"] = String(body.length);
  return { status: page.status, headers, body: request.method === "HEAD" ? null : body };
}

/** The reply as a fetch Response, for Remix's handler. */
export function pageResponse(page: Page, request: Request): Response {
  const { status, headers, body } = replyFor(page, {
    method: request.method,
    acceptEncoding: request.headers.get("Accept-Encoding"),
    ifNoneMatch: request.headers.get("If-None-Match"),
  });
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, one);
  }
  // Node's Buffers sit on plain ArrayBuffers (never shared ones), which is what BodyInit asks for.
  return new Response(body as Uint8Array<ArrayBuffer> | null, { status, headers: responseHeaders });
}

/** The reply written straight to Node's response: the page cache's path, without Remix. */
export function sendPage(
  page: Page,
  request: { method?: string; headers: Record<string, string | string[] | undefined> },
  response: ServerResponse,
): void {
  const { status, headers, body } = replyFor(page, {
    method: request.method ?? "GET",
    acceptEncoding: header(request.headers["accept-encoding"]),
    ifNoneMatch: header(request.headers["if-none-match"]),
  });
  response.writeHead(status, headers);
  response.end(body ?? undefined);
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(", ") : value);
