import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSite, type SiteServer } from "../support/site-server";

/**
 * One spelling per page: any other spelling of a path is moved (301, a post 308) to the canonical one, never answered
 * 200 with a copy (which the page cache would keep apart); the canonical link and og:url never echo the request's
 * spelling; a pre-single-fetch `?_data=` request is a plain 400 without a stack trace in the log.
 */

/** Sends the target exactly as written (fetch would normalise it). */
function raw(site: SiteServer, path: string, method = "GET") {
  return new Promise<{ status: number; location?: string; text: string }>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: site.port, path, method, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, text }));
    });
    req.on("error", reject);
    req.end();
  });
}

let site: SiteServer;
beforeAll(async () => {
  site = await startSite({ API_HOST: "", PUBLIC_URL: "https://haunt.example" });
});
afterAll(() => site?.stop());

describe("the built server", () => {
  it.each([
    ["/ABOUT", "/about"],
    ["/about///", "/about"],
    ["/%61bout", "/about"],
    ["/about/", "/about"],
    ["//about", "/about"],
    ["/Contact?x=1", "/contact?x=1"],
    ["/x/../about", "/about"],
  ])("GET %s is moved to %s (301), not served", async (path, location) => {
    for (let i = 0; i < 2; i++) {
      const reply = await raw(site, path);
      expect(reply.status).toBe(301);
      expect(reply.location).toBe(location);
    }
  });

  it("a post to another spelling keeps its method (308)", async () => {
    const reply = await raw(site, "/CONTACT", "POST");
    expect(reply.status).toBe(308);
    expect(reply.location).toBe("/contact");
  });

  it.each(["/", "/about", "/contact"])("%s names only its canonical address", async (path) => {
    const page = await raw(site, path);
    expect(page.status).toBe(200);
    const url = new URL(path, "https://haunt.example").href;
    expect(page.text).toContain(`<link rel="canonical" href="${url}"/>`);
    expect(page.text).toContain(`<meta property="og:url" content="${url}"/>`);
  });

  it("?_data= requests get a 400 and leave no stack trace in the log", async () => {
    for (const path of ["/contact?_data=routes/contact", "/?_data=root", "/about?index&_data=routes%2Fabout"]) {
      const reply = await raw(site, path);
      expect(reply.status).toBe(400);
    }
    expect((await raw(site, "/contact?_data=routes/contact", "POST")).status).toBe(400);
    expect(site.output()).not.toMatch(/_data requests|\n\s+at /);
  });
});
