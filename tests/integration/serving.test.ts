import { Agent, request as httpRequest, type OutgoingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enquiryMessages } from "~/wording";
import { maxErrorTextLength, maxShownErrors } from "~/enquiry/api-answer";
import { startHostileUpstream } from "../support/hostile-upstream";
import { runSiteExpectingExit, startSite, type SiteServer } from "../support/site-server";
import { enquiry } from "../support/enquiry";

/**
 * The real built server (`npm start`) over plain HTTP: nothing a request's headers say chooses the site's
 * public address, malformed headers and methods get a clear 4xx (never a 5xx), and a misbehaving upstream cannot
 * make a page unbounded.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request with exactly these headers (Host included), which fetch would not send. */
function raw(
  site: SiteServer,
  path: string,
  {
    method = "GET",
    headers = {},
    body,
    agent,
  }: { method?: string; headers?: OutgoingHttpHeaders; body?: string; agent?: Agent } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: site.port,
        path,
        method,
        headers,
        agent: agent ?? false,
        setHost: !("Host" in headers),
        timeout: 5_000,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("client timeout: no answer")));
    req.end(body);
  });
}

const form = (values: Record<string, string>) => ({
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(values).toString(),
});
const goodEnquiry = enquiry();

let site: SiteServer;
let publicSite: SiteServer;
beforeAll(async () => {
  [site, publicSite] = await Promise.all([
    startSite({ API_HOST: "" }),
    startSite({ API_HOST: "", PUBLIC_URL: "https://haunt.example/" }),
  ]);
});
afterAll(async () => {
  await Promise.all([site?.stop(), publicSite?.stop()]);
});

describe("malformed headers and methods get a clear 4xx, never a 5xx", () => {
  it.each(["/", "/healthz", "/about", "/contact", "/sitemap.xml"])(
    "X-Forwarded-Host: a:99999 on %s is ignored",
    async (path) => {
      const answer = await raw(site, path, { headers: { "X-Forwarded-Host": "a:99999" } });
      expect(answer.status).toBe(200);
    },
  );

  it.each(["TRACE", "PUT", "DELETE", "OPTIONS", "PATCH"])(
    "%s is a 405 that lists the allowed methods",
    async (method) => {
      const answer = await raw(site, "/", { method });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe("GET, HEAD, POST");
    },
  );

  it.each(["/%5C%5C", "/%5Cevil", "/%E0%A4%A", "/a%00b"])("GET %s is a 400", async (path) => {
    const answer = await raw(site, path);
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(/^Bad Request/);
  });

  it.each(["a<b>c", "a:99999", "exa mple.com", "a..b", "1.2.3.999", "[1:2:3]", "[1.2.3.4]"])(
    "Host: %s is a 400",
    async (host) => {
      const answer = await raw(site, "/", { headers: { Host: host } });
      expect(answer.status).toBe(400);
      expect(answer.text).toContain("Host");
    },
  );

  it.each(["localhost:3000", "haunt.example", "Haunt.Example", "[::1]:8080", "my_service:3000", "10.0.0.7"])(
    "Host: %s is served",
    async (host) => {
      expect((await raw(site, "/about", { headers: { Host: host } })).status).toBe(200);
    },
  );

  it.each([
    ["another site", "https://evil.example"],
    ["a sandboxed page", "null"],
    ["garbage", "not an origin"],
  ])("a form post from %s is a 403 page that says why", async (_what, origin) => {
    const answer = await raw(site, "/contact", {
      method: "POST",
      ...form(goodEnquiry),
      headers: { ...form(goodEnquiry).headers, Origin: origin },
    });
    expect(answer.status).toBe(403);
    expect(answer.text).toContain("Refused: this form was sent from another site");
  });

  it("a form post from the site's own origin (Host in another case) goes through", async () => {
    const { headers, body } = form(goodEnquiry);
    const answer = await raw(site, "/contact", {
      method: "POST",
      body,
      headers: { ...headers, Host: `LOCALHOST:${site.port}`, Origin: `http://localhost:${site.port}` },
    });
    expect(answer.status).toBe(303);
  });

  it("a 2 MB body posted to a page without an action does not wedge the keep-alive connection", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answer = await raw(site, "/about", {
        method: "POST",
        agent,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "a".repeat(2 * 1024 * 1024),
      });
      expect(answer.status).toBe(405);
      const started = Date.now();
      expect((await raw(site, "/", { agent })).status).toBe(200);
      expect((await raw(site, "/contact", { agent })).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      agent.destroy();
    }
  });
});

describe("behind a trusted proxy (TRUST_PROXY=1)", () => {
  it.each(["a b", "1", "ht<tp", "https, gopher"])("X-Forwarded-Proto: %s is ignored, not a 500", async (proto) => {
    const proxied = await startSite({ API_HOST: "", TRUST_PROXY: "1" });
    try {
      for (const path of ["/healthz", "/", "/contact"]) {
        expect((await raw(proxied, path, { headers: { "X-Forwarded-Proto": proto } })).status).toBe(200);
      }
      const { headers, body } = form(goodEnquiry);
      const post = await raw(proxied, "/contact", {
        method: "POST",
        body,
        headers: { ...headers, "X-Forwarded-Proto": proto },
      });
      expect(post.status).toBe(303);
    } finally {
      await proxied.stop();
    }
  });
});

describe("PUBLIC_URL is the one public origin", () => {
  const poisoned = { Host: "evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "gopher" };

  it("sitemap.xml and robots.txt use it, whatever Host and X-Forwarded-Host say", async () => {
    const sitemap = await raw(publicSite, "/sitemap.xml", { headers: poisoned });
    expect(sitemap.status).toBe(200);
    expect(sitemap.text).toContain("<loc>https://haunt.example/</loc>");
    expect(sitemap.text).toContain("<loc>https://haunt.example/contact</loc>");
    expect(sitemap.text).not.toContain("evil");
    const robots = await raw(publicSite, "/robots.txt", { headers: poisoned });
    expect(robots.text).toContain("Sitemap: https://haunt.example/sitemap.xml");
    expect(robots.text).not.toContain("evil");
  });

  it.each(["/", "/about", "/contact"])("%s has a canonical link and og:url at PUBLIC_URL", async (path) => {
    const page = await raw(publicSite, `${path}?utm_source=x`, { headers: poisoned });
    const url = new URL(path, "https://haunt.example").href;
    expect(page.text).toContain(`<link rel="canonical" href="${url}"/>`);
    expect(page.text).toContain(`<meta property="og:url" content="${url}"/>`);
    expect(page.text).not.toContain("evil.example");
  });

  it("without PUBLIC_URL: http://localhost:PORT, and a warning at start", async () => {
    const sitemap = await raw(site, "/sitemap.xml", { headers: poisoned });
    expect(sitemap.text).toContain(`<loc>http://localhost:${site.port}/about</loc>`);
    expect(site.output()).toContain("PUBLIC_URL is not set");
    expect(publicSite.output()).not.toContain("PUBLIC_URL is not set");
  });

  it.each(["haunt.example", "ftp://haunt.example", "https://haunt.example/shop"])(
    "PUBLIC_URL=%s stops the start with a message naming it",
    async (value) => {
      const result = await runSiteExpectingExit({ PUBLIC_URL: value });
      expect(result.code).not.toBe(0);
      expect(result.output).toContain("PUBLIC_URL");
    },
  );

  it("TRUST_PROXY=many stops the start with a message naming it", async () => {
    const result = await runSiteExpectingExit({ TRUST_PROXY: "many" });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("TRUST_PROXY");
  });
});

describe("a misbehaving upstream cannot make the page unbounded", () => {
  it("a 400 carrying a 100 MB title gives a small page with the generic failure", async () => {
    const hostile = await startHostileUpstream("huge-title");
    const proxied = await startSite({ API_HOST: hostile.origin, API_TIMEOUT_MS: "5000" });
    try {
      const answer = await raw(proxied, "/contact", { method: "POST", ...form(goodEnquiry) });
      expect(answer.status).toBe(502);
      expect(answer.text.length).toBeLessThan(100_000);
      expect(answer.text).toContain(enquiryMessages.genericFailure);
    } finally {
      await proxied.stop();
      await hostile.close();
    }
  });

  it("a long errors list is shown cut to a few short entries", async () => {
    const hostile = await startHostileUpstream("many-errors");
    const proxied = await startSite({ API_HOST: hostile.origin, API_TIMEOUT_MS: "5000" });
    try {
      const answer = await raw(proxied, "/contact", { method: "POST", ...form(goodEnquiry) });
      expect(answer.status).toBe(400);
      const status = /role="status"[^>]*>([^<]*)</.exec(answer.text)?.[1] ?? "";
      expect(status.startsWith(enquiryMessages.errorPrefix)).toBe(true);
      expect(status.match(/Field \d+:/g)).toHaveLength(maxShownErrors);
      expect(status.length).toBeLessThan(maxShownErrors * (maxErrorTextLength + 20) + 20);
    } finally {
      await proxied.stop();
      await hostile.close();
    }
  });

  it("an upstream that sends headers and stalls is a 504 that says the enquiry may have arrived", async () => {
    const hostile = await startHostileUpstream("stall-after-headers");
    const proxied = await startSite({ API_HOST: hostile.origin, API_TIMEOUT_MS: "1000" });
    try {
      const started = Date.now();
      const answer = await raw(proxied, "/contact", { method: "POST", ...form(goodEnquiry) });
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(answer.status).toBe(504);
      expect(enquiryMessages.timeout).toMatch(/may have/);
      expect(answer.text).toContain(enquiryMessages.timeout.replace(/'/g, "&#x27;"));
    } finally {
      await proxied.stop();
      await hostile.close();
    }
  });
});
