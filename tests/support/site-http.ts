/** Talking to the built site over plain HTTP as a browser without JavaScript would. */

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
