/** Talking to the built site over plain HTTP as a browser without JavaScript would. */
import { request, type IncomingHttpHeaders } from "node:http";

export interface Reply {
  status: number;
  location: string | null;
  text: string;
}

/** POSTs the contact form (urlencoded) without following the redirect. */
export async function postForm(base: string, fields: Record<string, string>): Promise<Reply> {
  const response = await fetch(`${base}/contact`, {
    method: "POST",
    body: new URLSearchParams(fields),
    redirect: "manual",
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, location: response.headers.get("location"), text: await response.text() };
}

/** The text of the page's role=status area. */
export function statusArea(html: string): string {
  const match = /<div[^>]*role="status"[^>]*>([\s\S]*?)<\/div>/.exec(html);
  if (!match) throw new Error("no role=status area in the page");
  return match[1]!
    .replace(/<!--.*?-->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .trim();
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * A request as a browser sends it to one instance behind the site's public name: Host is PUBLIC_URL's host (fetch
 * cannot set it), a post carries that Origin and a form body; `headers` adds or overrides (a cookie, X-Forwarded-For).
 * `agent: false` gives each request a connection of its own, so a burst is many clients at once, not one queue.
 */
export function sendAs(
  publicUrl: string,
  siteUrl: string,
  path: string,
  {
    method = "GET",
    cookie,
    body,
    upload,
    headers = {},
  }: {
    method?: string;
    cookie?: string;
    body?: Record<string, string>;
    /** A body already encoded (a multipart form), sent with its own Content-Type. */
    upload?: { bytes: Uint8Array; contentType: string };
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const payload = upload ? upload.bytes : body ? new URLSearchParams(body).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = request(
      `${siteUrl}${path}`,
      {
        method,
        agent: false,
        headers: {
          Host: new URL(publicUrl).host,
          ...(method === "POST"
            ? { Origin: publicUrl, "Content-Type": upload?.contentType ?? "application/x-www-form-urlencoded" }
            : {}),
          ...(cookie ? { Cookie: cookie } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}
