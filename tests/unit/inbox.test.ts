import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { enquiryFields, maxBodyBytes, type Enquiry } from "~/enquiry/fields";
import { appendEnquiry, handleSaveContact, isCaptchaAnswer, type StoredEnquiry } from "~/enquiry/inbox.server";
import { useTempDir } from "../support/temp-dir";

const good: Enquiry = { name: "Jane Doe", email: "jane@example.com", message: "A talking skull, please.", security: "Freddy" };

const temp = useTempDir("haunt-inbox-");
const tempInbox = () => temp.file();
const storedLines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []);

function save(body: BodyInit | null, contentType: string | null = "application/json", headers: Record<string, string> = {}) {
  const allHeaders = new Headers(headers);
  if (contentType) allHeaders.set("Content-Type", contentType);
  else allHeaders.delete("Content-Type");
  const request = new Request("http://site.test/api/site/save-contact", { method: "POST", body, duplex: "half" } as RequestInit);
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

describe("handleSaveContact", () => {
  it("stores a right answer (trimmed, any case) as one line without the captcha, and answers 204", async () => {
    const file = tempInbox();
    const before = Date.now();
    const response = await handleSaveContact(save(JSON.stringify({ ...good, name: "  Jane Doe ", security: " fREDDY " })), file);
    expect(response.status).toBe(204);
    const lines = storedLines(file);
    expect(lines).toHaveLength(1);
    const stored = JSON.parse(lines[0]!) as StoredEnquiry;
    expect(stored).toEqual({ receivedAt: expect.any(String), name: good.name, email: good.email, message: good.message });
    expect(Date.parse(stored.receivedAt)).toBeGreaterThanOrEqual(before - 1_000);
    expect(new Date(stored.receivedAt).toISOString()).toBe(stored.receivedAt);
  });

  it("accepts application/json with parameters", async () => {
    const file = tempInbox();
    expect((await handleSaveContact(save(JSON.stringify(good), "Application/JSON; charset=utf-8"), file)).status).toBe(204);
    expect(storedLines(file)).toHaveLength(1);
  });

  it("refuses a wrong answer with 400 and an errors list, and stores nothing", async () => {
    const file = tempInbox();
    const response = await handleSaveContact(save(JSON.stringify({ ...good, security: "Jason" })), file);
    expect(response.status).toBe(400);
    expect(await errorsOf(response)).toEqual([{ title: enquiryFields.security.title, detail: expect.any(String) }]);
    expect(existsSync(file)).toBe(false);
  });

  it("refuses an invalid enquiry with the validation errors, and stores nothing", async () => {
    const file = tempInbox();
    const response = await handleSaveContact(save(JSON.stringify({ ...good, name: " ", email: "nope" })), file);
    expect(response.status).toBe(400);
    expect((await errorsOf(response)).map((e) => e.title)).toEqual([enquiryFields.name.title, enquiryFields.email.title]);
    expect(existsSync(file)).toBe(false);
  });

  it.each([
    ["text/plain", JSON.stringify(good)],
    ["application/x-www-form-urlencoded", new URLSearchParams(good).toString()],
    [null, JSON.stringify(good)],
  ])("answers 415 to a %s body and stores nothing", async (contentType, body) => {
    const file = tempInbox();
    const response = await handleSaveContact(save(body, contentType), file);
    expect(response.status).toBe(415);
    expect((await errorsOf(response)).length).toBeGreaterThan(0);
    expect(existsSync(file)).toBe(false);
  });

  it("answers 413 to a body over 64 KB, declared or streamed, and stores nothing", async () => {
    expect(maxBodyBytes).toBe(64 * 1024);
    const file = tempInbox();
    const big = JSON.stringify({ ...good, message: "x".repeat(maxBodyBytes) });
    const declared = await handleSaveContact(save(big, "application/json", { "Content-Length": String(big.length) }), file);
    expect(declared.status).toBe(413);
    expect((await errorsOf(declared)).length).toBeGreaterThan(0);
    const streamed = await handleSaveContact(save(new Blob([big]).stream()), file);
    expect(streamed.status).toBe(413);
    expect(existsSync(file)).toBe(false);
  });

  it.each(["{", "", "not json", '{"name": "Jane",}'])("answers 400 to the invalid JSON %j", async (body) => {
    const file = tempInbox();
    const response = await handleSaveContact(save(body), file);
    expect(response.status).toBe(400);
    expect((await errorsOf(response)).length).toBeGreaterThan(0);
    expect(existsSync(file)).toBe(false);
  });

  it("answers 503 with an errors list when the inbox cannot be written", async () => {
    const dir = temp.dir();
    writeFileSync(join(dir, "not-a-dir"), "");
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await handleSaveContact(save(JSON.stringify(good)), join(dir, "not-a-dir", "enquiries.jsonl"));
    expect(response.status).toBe(503);
    expect((await errorsOf(response)).length).toBeGreaterThan(0);
    expect(spy).toHaveBeenCalledTimes(1);
    // A failed write does not jam the queue for the next enquiry.
    const file = tempInbox();
    expect((await handleSaveContact(save(JSON.stringify(good)), file)).status).toBe(204);
    expect(storedLines(file)).toHaveLength(1);
  });
});

describe("appendEnquiry", () => {
  it("creates the directory and a file only the owner can read", async () => {
    const file = join(temp.dir(), "a", "b", "enquiries.jsonl");
    await appendEnquiry(file, { receivedAt: new Date().toISOString(), name: "A", email: "a@example.com", message: "m" });
    expect(storedLines(file)).toHaveLength(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("keeps 200 concurrent appends whole, parseable, in order, none lost or interleaved", async () => {
    const file = tempInbox();
    const records: StoredEnquiry[] = Array.from({ length: 200 }, (_, i) => ({
      receivedAt: new Date(Date.UTC(2025, 9, 1, 0, 0, i)).toISOString(),
      name: `Visitor ${i}`,
      email: `visitor${i}@example.com`,
      // Long, multi-line and varied, so an interleaved write would be visible.
      message: `Line one of ${i}\n${"boo ".repeat(50 + (i % 7) * 100)}\n"quoted" ${i}`,
    }));
    await Promise.all(records.map((record) => appendEnquiry(file, record)));
    const text = readFileSync(file, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.split("\n").slice(0, -1);
    expect(lines).toHaveLength(200);
    expect(lines.map((line) => JSON.parse(line) as StoredEnquiry)).toEqual(records);
  });
});
