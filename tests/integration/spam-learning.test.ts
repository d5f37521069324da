import { request, type IncomingHttpHeaders } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runInbox } from "../support/inbox-command";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { ensureBuilt, readInbox, startSite, type SiteServer } from "../support/site-server";

/**
 * The spam filter learns from the owner, shared by every instance: two built servers on one PostgreSQL
 * database, the owner logged in to one of them; "Mark as spam" and "Not spam" on the web there change the verdict
 * of the next enquiry like it on the other. The enquiry's page shows the verdict and its reasons; the list marks
 * possible spam.
 */

let postgres: TestDatabases;
const sites: SiteServer[] = [];
const publicUrl = "http://inbox.example";
const password = "owner of two instances";

beforeAll(async () => {
  if (!postgresAvailable) return;
  await ensureBuilt();
  postgres = await sharedPostgres();
}, 60_000);
afterAll(() => postgres?.stop());
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.stop()));
});

/**
 * A request as a browser sends it to one instance behind the load balancer: Host and Origin the public name (node:http,
 * as fetch sets its own Host and Sec-Fetch-* headers).
 */
function send(
  site: SiteServer,
  path: string,
  { cookie, body }: { cookie?: string; body?: Record<string, string> },
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${site.url}${path}`,
      {
        method: body ? "POST" : "GET",
        headers: {
          Host: new URL(publicUrl).host,
          ...(body ? { Origin: publicUrl, "Content-Type": "application/x-www-form-urlencoded" } : {}),
          ...(cookie ? { Cookie: cookie } : {}),
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
    req.end(body ? new URLSearchParams(body).toString() : undefined);
  });
}

let sent = 0;
/** Posts through the JSON endpoint (content alone is judged) and resolves with the stored enquiry. */
async function enquire(site: SiteServer, databaseUrl: string, email: string, message: string) {
  sent++;
  const values = { name: `Sender ${sent}`, email, message, security: "Freddy" };
  const response = await fetch(`${site.url}/api/site/save-contact`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(values),
  });
  expect(response.status).toBe(204);
  const stored = (await readInbox(databaseUrl)).find((enquiry) => enquiry.email === email);
  if (!stored) throw new Error(`nothing stored from ${email}`);
  return stored;
}

const solar = [
  "Cut your energy bill in half with rooftop solar panels. Zero down, federal tax credit, free install quote.",
  "Rooftop solar panels for your business with zero down and the federal tax credit. Get a free install quote.",
  "Still paying too much for power? Solar panels, zero down, tax credit included. Free install quote today.",
];
// A real customer who writes like a pitch (an agency buying props for its clients' events).
const agency = [
  "I noticed your website has animated props. Our marketing agency wants one for a client's Halloween launch event. Can you send pricing?",
  "Hi, I came across your website: our agency's client wants a haunted pop-up for their brand launch. Could you send your pricing for a rental?",
  "I noticed your website again: our marketing agency has a second client launch in October. Can you send pricing for two animated props?",
];

describe.skipIf(!postgresAvailable)("the owner teaches one instance, every instance learns", () => {
  it("Mark as spam and Not spam on one instance change the verdict on the other", async () => {
    const databaseUrl = await postgres.createDatabase();
    const env = { API_HOST: "", DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, SPAM_FILTER: "on" };
    const [a, b] = await Promise.all([startSite(env), startSite(env)]);
    sites.push(a, b);
    const added = await runInbox(["operator", "add", "owner@example.com"], {
      env: { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "" },
      input: `${password}\n`,
    });
    expect(added.status).toBe(0);
    const login = await send(a, "/inbox/login", { body: { email: "owner@example.com", password, next: "/inbox" } });
    expect(login.status).toBe(302);
    const cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;

    // A kind of pitch the built-in corpus does not know: announced, until the owner marks it on instance A.
    const firstPitch = await enquire(a, databaseUrl, "one@brightsolar-deals.com", solar[0]!);
    expect(firstPitch).toMatchObject({ status: "new", spamVerdict: "none" });
    const marked = await send(a, `/inbox/${firstPitch.id}`, { cookie, body: { intent: "spam" } });
    expect(marked.status).toBe(302);
    expect(marked.headers.location).toBe(`/inbox/${firstPitch.id}?done=spam`);
    const secondPitch = await enquire(b, databaseUrl, "two@brightsolar-deals.com", solar[1]!);
    expect(secondPitch).toMatchObject({ status: "spam", spamVerdict: "spam", notifications: [] });
    expect(secondPitch.spamReasons.length).toBeGreaterThan(0);

    // A real customer who writes like a pitch: possible spam, shown so in the list and on its page (on B).
    const firstAsk = await enquire(b, databaseUrl, "dana@lanternagency.com", agency[2]!);
    expect(firstAsk).toMatchObject({ status: "new", spamVerdict: "possible" });
    const list = await send(b, "/inbox", { cookie });
    expect(list.text).toContain("possible spam");
    const page = await send(b, `/inbox/${firstAsk.id}`, { cookie });
    expect(page.text).toContain("Possible spam (announced with a marker)");
    expect(page.text).toContain(`What weighed most: ${firstAsk.spamReasons.join("; ")}`.replace(/"/g, "&quot;"));
    expect(page.text).toContain(">Not spam</button>");
    // The owner says it is real, on B, and one more like it on A; the next one like it is announced as usual.
    expect((await send(b, `/inbox/${firstAsk.id}`, { cookie, body: { intent: "not-spam" } })).status).toBe(302);
    const secondAsk = await enquire(a, databaseUrl, "lee@lanternagency.com", agency[1]!);
    expect((await send(a, `/inbox/${secondAsk.id}`, { cookie, body: { intent: "not-spam" } })).status).toBe(302);
    const decided = (await readInbox(databaseUrl)).find((enquiry) => enquiry.id === firstAsk.id)!;
    expect(decided).toMatchObject({ status: "new", spamVerdict: "possible", spamDecision: "not-spam" });
    const thirdAsk = await enquire(a, databaseUrl, "sam@lanternagency.com", agency[0]!);
    expect(thirdAsk).toMatchObject({ status: "new", spamVerdict: "none" });
  }, 60_000);
});
