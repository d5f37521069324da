import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptEnquiry } from "~/enquiry/accept.server";
import { enquiryFieldNames, enquiryFields, type Enquiry } from "~/enquiry/fields";
import { postEnquiry, readOutcome, saveContactPath } from "~/enquiry/forward.server";
import { maxErrorTextLength, maxShownErrors } from "~/enquiry/api-answer";
import { startFakeUpstream } from "../support/fake-upstream.mjs";
import { currentInbox } from "../../server/database";
import { useEmbeddedInbox } from "../support/embedded-inbox";
import { startHostileUpstream } from "../support/hostile-upstream";
import { testServices } from "../support/services";
import { freePort } from "../support/free-port.mjs";
import { enquiry } from "../support/enquiry";

/** The upstream client against a real HTTP server on 127.0.0.1 (the fake upstream), one token per test. */

const inbox = useEmbeddedInbox();
type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startFakeUpstream({ port: 0 });
});
afterAll(async () => {
  await upstream?.close();
});

/** Scripts the fake for a fresh token and posts an enquiry carrying it. */
async function post(script: Parameters<Upstream["script"]>[1], timeoutMs = 5_000) {
  const token = randomUUID();
  upstream.script(token, script);
  const outcome = await postEnquiry(enquiry(token), upstream.origin, timeoutMs);
  return { token, outcome };
}

const json = "application/json";

describe("postEnquiry: success is any 2xx, body not needed", () => {
  it.each([
    { status: 200, body: JSON.stringify({ ok: true }), contentType: json },
    { status: 200, body: "" },
    { status: 201, body: JSON.stringify({ id: 7 }), contentType: json },
    { status: 201, body: "" },
    { status: 201, body: "<html><body>Created</body></html>", contentType: "text/html" },
    { status: 204 },
    { status: 200, body: "{not json", contentType: json },
  ])("$status with body $body is sent", async (script) => {
    const { outcome } = await post(script);
    expect(outcome).toEqual({ kind: "sent", status: script.status });
  });

  it("sends an unscripted enquiry once and gets the fake's default 201", async () => {
    const token = randomUUID();
    expect(await postEnquiry(enquiry(token), upstream.origin, 5_000)).toEqual({ kind: "sent", status: 201 });
    expect(upstream.receivedFor(token)).toHaveLength(1);
  });
});

describe("postEnquiry: what the upstream receives", () => {
  it("is a POST to /api/site/save-contact with JSON content type and exactly the four text fields", async () => {
    const token = randomUUID();
    const sent = enquiry(token);
    await postEnquiry(sent, upstream.origin, 5_000);
    const [request] = upstream.receivedFor(token);
    expect(request).toBeDefined();
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe(saveContactPath);
    expect(request!.path).toBe("/api/site/save-contact");
    expect(request!.contentType.split(";")[0]).toBe("application/json");
    const body = JSON.parse(request!.raw) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["email", "message", "name", "security"]);
    expect(Object.keys(body).sort()).toEqual([...enquiryFieldNames].sort());
    for (const value of Object.values(body)) expect(typeof value).toBe("string");
    expect(body).toEqual(sent);
  });

  it("keeps non-ASCII text intact", async () => {
    const token = randomUUID();
    const sent = {
      ...enquiry(token),
      name: "Zoë Krüger 🎃",
      message: `Ça marche? "quotes" & <tags>\nline two ${token}`,
    };
    expect(await postEnquiry(sent, upstream.origin, 5_000)).toMatchObject({ kind: "sent" });
    expect(upstream.receivedFor(token)[0]!.body).toEqual(sent);
  });
});

describe("postEnquiry: failures", () => {
  it("400 with an errors list is rejected with those errors", async () => {
    const errors = [
      { title: "Security", detail: "Wrong answer" },
      { title: "Email", detail: "Invalid" },
    ];
    const { outcome } = await post({ status: 400, contentType: json, body: JSON.stringify({ errors }) });
    expect(outcome).toEqual({ kind: "rejected", status: 400, errors });
  });

  it("422 with other JSON is a generic failure", async () => {
    const { outcome } = await post({
      status: 422,
      contentType: json,
      body: JSON.stringify({ message: "Unprocessable" }),
    });
    expect(outcome).toEqual({ kind: "failed", status: 422 });
  });

  it("500 with an HTML page is a generic failure", async () => {
    const { outcome } = await post({
      status: 500,
      contentType: "text/html",
      body: "<!doctype html><h1>Internal Server Error</h1>",
    });
    expect(outcome).toEqual({ kind: "failed", status: 500 });
  });

  it("503 with an empty body is a generic failure", async () => {
    const { outcome } = await post({ status: 503 });
    expect(outcome).toEqual({ kind: "failed", status: 503 });
  });

  it("a 302 redirect is a failure and is not followed", async () => {
    // Followed, it would become GET /elsewhere, which the fake answers with a 404 and an errors list.
    const { token, outcome } = await post({ action: "redirect" });
    expect(outcome).toEqual({ kind: "failed", status: 302 });
    expect(upstream.receivedFor(token)).toHaveLength(1);
  });

  it("a reset socket is unreachable, with the cause for the log", async () => {
    const { outcome } = await post({ action: "reset" });
    expect(outcome).toEqual({ kind: "unreachable", error: expect.stringMatching(/fetch failed|ECONNRESET|socket/i) });
  });

  it("a refused connection (a port opened and closed) is unreachable", async () => {
    const port = await freePort();
    const outcome = await postEnquiry(enquiry(), `http://127.0.0.1:${port}`, 5_000);
    expect(outcome).toEqual({ kind: "unreachable", error: expect.stringContaining("ECONNREFUSED") });
  });

  it("an upstream that hangs past the timeout is a timeout, returned within a bound", async () => {
    const started = Date.now();
    const { token, outcome } = await post({ action: "hang" }, 300);
    expect(outcome).toEqual({ kind: "timeout" });
    expect(Date.now() - started).toBeLessThan(300 + 2_000);
    expect(upstream.receivedFor(token)).toHaveLength(1);
  });

  it("a slow 500 that answers after the timeout is a timeout", async () => {
    const { outcome } = await post({ status: 500, delayMs: 1_500 }, 300);
    expect(outcome).toEqual({ kind: "timeout" });
  });
});

describe("readOutcome: an error body that breaks off", () => {
  it("is a generic failure, not a thrown error", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"errors": [{"title": "Em'));
        controller.error(new Error("connection lost"));
      },
    });
    expect(await readOutcome(new Response(body, { status: 400 }))).toEqual({ kind: "failed", status: 400 });
  });
});

describe("acceptEnquiry: to the API when API_HOST is set, else to the embedded inbox", () => {
  const formPost = (sent: Enquiry) =>
    new Request("http://site.test/contact", { method: "POST", body: new URLSearchParams(sent) });
  // Where an enquiry goes, not the spam filter (a form post made by a test carries no form token): SPAM_FILTER=off.
  const embedded = testServices(
    { ...inbox.config, spam: { filter: false } },
    { inbox: currentInbox, channels: inbox.channels },
  );
  const withApi = () => testServices({ ...inbox.config, apiHost: upstream.origin });

  it("with API_HOST goes to the upstream and stores nothing", async () => {
    const token = randomUUID();
    const sent = enquiry(token);
    expect(await acceptEnquiry(formPost(sent), "form", withApi())).toEqual({ kind: "accepted", upstreamStatus: 201 });
    expect(upstream.receivedFor(token)).toHaveLength(1);
    expect((await inbox.stored()).filter((item) => item.message === sent.message)).toEqual([]);
  });

  it("without API_HOST stores a right answer in the embedded inbox and sends nothing over HTTP", async () => {
    const token = randomUUID();
    const sent = { ...enquiry(token), security: " freddy " };
    expect(await acceptEnquiry(formPost(sent), "form", embedded)).toEqual({ kind: "accepted" });
    const stored = (await inbox.stored()).filter((item) => item.message === sent.message);
    expect(stored).toMatchObject([{ name: sent.name, email: sent.email, message: sent.message }]);
    expect(upstream.receivedFor(token)).toEqual([]);
  });

  it("without API_HOST refuses a wrong answer with the embedded back-end's errors and stores nothing", async () => {
    const sent = { ...enquiry(), security: "Jason" };
    expect(await acceptEnquiry(formPost(sent), "form", embedded)).toEqual({
      kind: "wrong-answer",
      errors: [{ title: enquiryFields.security.title, detail: expect.any(String) }],
      values: sent,
    });
    expect((await inbox.stored()).filter((item) => item.message === sent.message)).toEqual([]);
  });
});

describe("postEnquiry: an upstream that misbehaves is bounded", () => {
  it("asks for an unencoded answer and reads at most 64 KiB of a 400 carrying a 100 MB title", async () => {
    const hostile = await startHostileUpstream("huge-title");
    try {
      const started = Date.now();
      expect(await postEnquiry(enquiry(), hostile.origin, 5_000)).toEqual({ kind: "failed", status: 400 });
      expect(Date.now() - started).toBeLessThan(3_000);
      // 64 KiB read; the rest of what was written sat in socket buffers when the reader stopped.
      expect(hostile.bytesSent()).toBeLessThan(16 * 1024 * 1024);
      expect(hostile.requests[0]!["accept-encoding"]).toBe("identity");
    } finally {
      await hostile.close();
    }
  });

  it("an answer that sends its headers and then stalls is a timeout, within a bound", async () => {
    const hostile = await startHostileUpstream("stall-after-headers");
    try {
      const started = Date.now();
      expect(await postEnquiry(enquiry(), hostile.origin, 500)).toEqual({ kind: "timeout" });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await hostile.close();
    }
  });

  it("an errors list of 100 long entries is cut to a few short ones", async () => {
    const hostile = await startHostileUpstream("many-errors");
    try {
      const outcome = await postEnquiry(enquiry(), hostile.origin, 5_000);
      expect(outcome.kind).toBe("rejected");
      const errors = outcome.kind === "rejected" ? outcome.errors : [];
      expect(errors).toHaveLength(maxShownErrors);
      for (const error of errors) expect(error.detail.length).toBeLessThanOrEqual(maxErrorTextLength);
    } finally {
      await hostile.close();
    }
  });
});
