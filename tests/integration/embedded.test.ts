import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { enquiryFields, maxBodyBytes, type Enquiry } from "~/enquiry/fields";
import { acceptEnquiry, isCaptchaAnswer } from "~/enquiry/accept.server";
import { apiAnswer } from "~/enquiry/answers.server";
import { startInbox, stopInbox } from "../../server/database";
import { useEmbeddedInbox } from "../support/embedded-inbox";
import { enquiry } from "../support/enquiry";

/** Each test's enquiry is its own (unique address), so the duplicate window never joins two tests. */
let good: Enquiry;
const inbox = useEmbeddedInbox(["email", "webhook"]);
/** POST /api/site/save-contact's action on this file's inbox. */
const handleSaveContact = async (request: Request) => apiAnswer(await acceptEnquiry(request, "json", inbox.services));
const storedFor = async (email: string) => (await inbox.stored()).filter((item) => item.email === email);

function save(
  body: BodyInit | null,
  contentType: string | null = "application/json",
  headers: Record<string, string> = {},
) {
  const allHeaders = new Headers(headers);
  if (contentType) allHeaders.set("Content-Type", contentType);
  else allHeaders.delete("Content-Type");
  const request = new Request("http://site.test/api/site/save-contact", {
    method: "POST",
    body,
    duplex: "half",
  } as RequestInit);
  // A string body gets text/plain by default: replace the headers wholesale so a test controls them exactly.
  return new Request(request, { headers: allHeaders });
}

async function errorsOf(response: Response) {
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  const body = (await response.json()) as { errors: { title: string; detail: string }[] };
  expect(Array.isArray(body.errors)).toBe(true);
  for (const error of body.errors) expect(Object.keys(error).sort()).toEqual(["detail", "title"]);
  return body.errors;
}

beforeEach(() => {
  good = enquiry();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("isCaptchaAnswer", () => {
  it.each(["Freddy", "freddy", "FREDDY", "fReDdY", "  Freddy  ", "\tfreddy\n"])("accepts %j", (answer) => {
    expect(isCaptchaAnswer(answer)).toBe(true);
  });

  it.each(["", "Fred", "Freddie", "Freddy Krueger", "Jason", "F r e d d y", "Freddy."])("refuses %j", (answer) => {
    expect(isCaptchaAnswer(answer)).toBe(false);
  });
});

describe("POST /api/site/save-contact (acceptEnquiry, apiAnswer)", () => {
  it("stores a right answer (trimmed, any case) without the captcha, with its notifications, and answers 204", async () => {
    const before = Date.now();
    const response = await handleSaveContact(
      save(JSON.stringify({ ...good, name: `  ${good.name} `, security: " fREDDY " })),
    );
    expect(response.status).toBe(204);
    const [stored, ...rest] = await storedFor(good.email);
    expect(rest).toEqual([]);
    expect(stored).toMatchObject({ name: good.name, email: good.email, message: good.message });
    expect(JSON.stringify(stored)).not.toMatch(/freddy/i);
    expect(stored!.receivedAt.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(stored!.notifications.map((n) => [n.channel, n.state])).toEqual([
      ["email", "pending"],
      ["webhook", "pending"],
    ]);
  });

  it("thanks a resubmit of the same enquiry and stores it once", async () => {
    for (let i = 0; i < 3; i++) expect((await handleSaveContact(save(JSON.stringify(good)))).status).toBe(204);
    expect(await storedFor(good.email)).toHaveLength(1);
  });

  it("accepts application/json with parameters", async () => {
    expect((await handleSaveContact(save(JSON.stringify(good), "Application/JSON; charset=utf-8"))).status).toBe(204);
    expect(await storedFor(good.email)).toHaveLength(1);
  });

  it("refuses a wrong answer with 400 and an errors list, and stores nothing", async () => {
    const response = await handleSaveContact(save(JSON.stringify({ ...good, security: "Jason" })));
    expect(response.status).toBe(400);
    expect(await errorsOf(response)).toEqual([{ title: enquiryFields.security.title, detail: expect.any(String) }]);
    expect(await storedFor(good.email)).toEqual([]);
  });

  it("refuses an invalid enquiry with the validation errors, and stores nothing", async () => {
    const response = await handleSaveContact(save(JSON.stringify({ ...good, name: " ", email: "nope" })));
    expect(response.status).toBe(400);
    expect((await errorsOf(response)).map((e) => e.title)).toEqual([
      enquiryFields.name.title,
      enquiryFields.email.title,
    ]);
    expect(await storedFor(good.email)).toEqual([]);
  });

  it.each([
    ["text/plain", JSON.stringify(good)],
    ["application/x-www-form-urlencoded", new URLSearchParams(good).toString()],
    [null, JSON.stringify(good)],
  ])("answers 415 to a %s body and stores nothing", async (contentType, body) => {
    const response = await handleSaveContact(save(body, contentType));
    expect(response.status).toBe(415);
    expect((await errorsOf(response)).length).toBeGreaterThan(0);
    expect(await storedFor(good.email)).toEqual([]);
  });

  it("answers 413 to a body over 64 KB, declared or streamed, and stores nothing", async () => {
    expect(maxBodyBytes).toBe(64 * 1024);
    const big = JSON.stringify({ ...good, message: "x".repeat(maxBodyBytes) });
    const declared = await handleSaveContact(save(big, "application/json", { "Content-Length": String(big.length) }));
    expect(declared.status).toBe(413);
    expect((await errorsOf(declared)).length).toBeGreaterThan(0);
    const streamed = await handleSaveContact(save(new Blob([big]).stream()));
    expect(streamed.status).toBe(413);
    expect(await storedFor(good.email)).toEqual([]);
  });

  it.each(["{", "", "not json", '{"name": "Jane",}'])("answers 400 to the invalid JSON %j", async (body) => {
    const response = await handleSaveContact(save(body));
    expect(response.status).toBe(400);
    expect((await errorsOf(response)).length).toBeGreaterThan(0);
    expect(await storedFor(good.email)).toEqual([]);
  });

  it("answers 503 with an errors list when the inbox cannot take it, and takes the next one again", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    await stopInbox(); // the database is gone
    const response = await handleSaveContact(save(JSON.stringify(good)));
    expect(response.status).toBe(503);
    expect((await errorsOf(response)).length).toBeGreaterThan(0);
    expect(spy).toHaveBeenCalledTimes(1);
    await startInbox(inbox.config, inbox.channels); // and back
    expect((await handleSaveContact(save(JSON.stringify(good)))).status).toBe(204);
    expect(await storedFor(good.email)).toHaveLength(1);
  });
});
