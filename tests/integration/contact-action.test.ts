import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { parseConfig, type Config } from "~/config.server";
import { enquiryMessages } from "~/wording";
import { acceptEnquiry } from "~/enquiry/accept.server";
import { contactPageAnswer, sentLocation, type ContactActionData } from "~/enquiry/answers.server";
import { enquiryFields, honeypotField, maxBodyBytes } from "~/enquiry/fields";
import { startFakeUpstream } from "../support/fake-upstream.mjs";
import { freePort } from "../support/free-port.mjs";
import { noRateLimits } from "../support/site-server";
import { testServices } from "../support/services";
import { useTempDir } from "../support/temp-dir";
import { enquiry } from "../support/enquiry";

/** The contact route's action, called directly with real Requests, forwarding to the fake upstream over HTTP. */

const temp = useTempDir("haunt-action-");
type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;
let upstream: Upstream;
let config: Config;
let logs: string[];
let logSpies: MockInstance[];

beforeAll(async () => {
  upstream = await startFakeUpstream({ port: 0 });
  config = parseConfig({
    ...noRateLimits,
    API_HOST: upstream.origin,
    API_TIMEOUT_MS: "2000",
    DATABASE_URL: `file:${temp.file("enquiries.db")}`,
  });
});
afterAll(async () => {
  await upstream?.close();
});
beforeEach(() => {
  logs = [];
  // Captured rather than printed: the assertions below read them.
  logSpies = [
    vi.spyOn(console, "log").mockImplementation((line: string) => void logs.push(line)),
    vi.spyOn(console, "error").mockImplementation((line: string) => void logs.push(line)),
  ];
});
afterEach(() => {
  for (const spy of logSpies) spy.mockRestore();
});

type Result = { status: number; location?: string | null; data?: ContactActionData };

async function act(body: BodyInit, headers: Record<string, string> = {}, withConfig: Config = config): Promise<Result> {
  const request = new Request("http://site.test/contact", { method: "POST", body, headers });
  const result = contactPageAnswer(await acceptEnquiry(request, "form", testServices(withConfig)));
  // One structured line per attempt, whatever happened, and never the visitor's words.
  expect(logs).toHaveLength(1);
  const line = JSON.parse(logs[0]!) as Record<string, unknown>;
  expect(line).toMatchObject({ event: "enquiry", outcome: expect.any(String), durationMs: expect.any(Number) });
  logs.length = 0;
  if (!("data" in result)) return { status: result.status, location: result.headers.get("Location") }; // a redirect
  return { status: result.init?.status ?? 200, data: result.data };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

describe("the contact action (acceptEnquiry, contactPageAnswer)", () => {
  it("forwards a good form post once and redirects 303 to the thank-you", async () => {
    const sent = enquiry();
    const token = sent.message.split(" ").at(-1)!;
    expect(await act(form(sent))).toEqual({ status: 303, location: sentLocation });
    expect(upstream.receivedFor(token).map((r) => r.body)).toEqual([sent]);
  });

  it("accepts multipart/form-data too", async () => {
    const sent = enquiry();
    const body = new FormData();
    for (const [name, value] of Object.entries(sent)) body.set(name, value);
    expect(await act(body)).toEqual({ status: 303, location: sentLocation });
  });

  it("never logs the message or the e-mail address", async () => {
    const sent = enquiry();
    const request = new Request("http://site.test/contact", { method: "POST", body: form(sent) });
    contactPageAnswer(await acceptEnquiry(request, "form", testServices(config)));
    const empty = new Request("http://site.test/contact", { method: "POST", body: form({ ...sent, security: "" }) });
    contactPageAnswer(await acceptEnquiry(empty, "form", testServices(config)));
    expect(logs).toHaveLength(2);
    for (const line of logs) {
      expect(line).not.toContain(sent.email);
      expect(line).not.toContain(sent.message);
    }
  });

  it("treats a filled honeypot as sent and forwards nothing", async () => {
    const sent = enquiry();
    const token = sent.message.split(" ").at(-1)!;
    expect(await act(form({ ...sent, [honeypotField]: "x" }))).toEqual({ status: 303, location: sentLocation });
    expect(upstream.receivedFor(token)).toEqual([]);
  });

  it("ignores an empty honeypot", async () => {
    expect(await act(form({ ...enquiry(), [honeypotField]: "" }))).toMatchObject({ status: 303 });
  });

  it.each([
    ["application/json", () => JSON.stringify(enquiry())],
    ["text/plain", () => "name=Jane"],
  ])("refuses a %s body with 415 and forwards nothing", async (contentType, body) => {
    const before = upstream.received.length;
    const result = await act(body(), { "Content-Type": contentType });
    expect(result.status).toBe(415);
    expect(result.data?.status.startsWith(`${enquiryMessages.errorPrefix} `)).toBe(true);
    expect(upstream.received.length).toBe(before);
  });

  it("refuses a body over the cap with 413 and does not echo it back", async () => {
    const sent = enquiry();
    const result = await act(form({ ...sent, message: "x".repeat(maxBodyBytes) }));
    expect(result.status).toBe(413);
    expect(result.data?.values).toEqual({});
  });

  it("refuses missing fields with 400, one error per field, keeping what was typed", async () => {
    const typed = { name: "  Jane  ", email: "", message: "Hello", security: "" };
    const result = await act(form(typed));
    expect(result.status).toBe(400);
    expect(result.data?.values).toEqual(typed);
    expect(result.data?.status).toBe(
      `${enquiryMessages.errorPrefix} ${enquiryFields.email.title}: Please enter your e-mail address. ${enquiryFields.security.title}: Please answer the security question.`,
    );
  });

  it("shows the upstream's errors with its 4xx status", async () => {
    const sent = enquiry();
    upstream.script(sent.message, {
      status: 422,
      contentType: "application/json",
      body: JSON.stringify({
        errors: [
          { title: "Security", detail: "Wrong answer" },
          { title: "Email", detail: "Invalid" },
        ],
      }),
    });
    const result = await act(form(sent));
    expect(result).toEqual({
      status: 422,
      data: { status: "Error: Security: Wrong answer Email: Invalid", values: sent },
    });
  });

  it.each([
    [
      "an upstream 500 with errors",
      { status: 500, contentType: "application/json", body: '{"errors":[{"title":"Server","detail":"Down"}]}' },
      502,
      "Error: Server: Down",
    ],
    [
      "an upstream 503 with errors",
      { status: 503, contentType: "application/json", body: '{"errors":[{"title":"Server","detail":"Busy"}]}' },
      503,
      "Error: Server: Busy",
    ],
    [
      "an upstream 500 HTML page",
      { status: 500, contentType: "text/html", body: "<h1>Oops</h1>" },
      502,
      enquiryMessages.genericFailure,
    ],
    ["an upstream redirect", { action: "redirect" as const }, 502, enquiryMessages.genericFailure],
    ["an upstream reset", { action: "reset" as const }, 502, enquiryMessages.unreachable],
  ])("maps %s to %i and its status text, never 500", async (_label, script, status, text) => {
    const sent = enquiry();
    upstream.script(sent.message, script);
    expect(await act(form(sent))).toEqual({ status, data: { status: text, values: sent } });
  });

  it("maps a refused connection to 502 and an upstream past the timeout to 504", async () => {
    const refused = { ...config, apiHost: `http://127.0.0.1:${await freePort()}` };
    expect(await act(form(enquiry()), {}, refused)).toMatchObject({
      status: 502,
      data: { status: enquiryMessages.unreachable },
    });

    const sent = enquiry();
    upstream.script(sent.message, { action: "hang" });
    const quick = { ...config, apiTimeoutMs: 300 };
    expect(await act(form(sent), {}, quick)).toMatchObject({ status: 504, data: { status: enquiryMessages.timeout } });
  });
});
