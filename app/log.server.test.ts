import { afterEach, describe, expect, it, vi } from "vitest";
import { currentRequestId, defaultLogFormat, formatText, log, withRequestId } from "~/log.server";

describe("the text format", () => {
  it("prints a plain line as its message, on stdout up to info", () => {
    expect(
      formatText({ level: "info", time: "2026-11-26T10:00:00.000Z", msg: "[server] http://127.0.0.1:3000" }),
    ).toEqual({ line: "[server] http://127.0.0.1:3000", stderr: false });
  });

  it("sends warnings and errors to stderr, as console.warn and console.error did", () => {
    expect(formatText({ level: "warn", msg: "[config] PUBLIC_URL is not set" }).stderr).toBe(true);
    expect(formatText({ level: "error", msg: "inbox: PURGE FAILED" }).stderr).toBe(true);
  });

  it("leaves the JSON fields of a plain line to the JSON format (the access line reads as before)", () => {
    const record = {
      level: "info",
      time: "t",
      reqId: "r-1",
      method: "GET",
      path: "/about",
      msg: "GET /about 200 5 - 1.000 ms",
    };
    expect(formatText(record).line).toBe("GET /about 200 5 - 1.000 ms");
  });

  it("puts an error's stack below its message", () => {
    const { line } = formatText({
      level: "error",
      msg: "[render] a request failed",
      err: { stack: "Error: boom\n    at x" },
    });
    expect(line).toBe("[render] a request failed\nError: boom\n    at x");
  });

  it("keeps an event's line the JSON it always was: time and event first, the request id last, no level or msg", () => {
    const { line, stderr } = formatText({
      level: "info",
      time: "2026-11-26T10:00:00.000Z",
      reqId: "abc",
      event: "notification",
      outcome: "sent",
      channel: "email",
      msg: "notification sent",
    });
    expect(stderr).toBe(false);
    expect(line).toBe(
      '{"time":"2026-11-26T10:00:00.000Z","event":"notification","outcome":"sent","channel":"email","reqId":"abc"}',
    );
    expect(formatText({ level: "error", event: "notification", outcome: "failed" }).stderr).toBe(true);
  });
});

describe("the default format", () => {
  it("is text under a terminal and JSON otherwise", () => {
    expect(defaultLogFormat(true)).toBe("text");
    expect(defaultLogFormat(false)).toBe("json");
  });
});

describe("the request context", () => {
  afterEach(() => vi.restoreAllMocks());

  it("carries the request id across awaits, and only inside the request", async () => {
    expect(currentRequestId()).toBeUndefined();
    const seen = await withRequestId("req-1", async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return currentRequestId();
    });
    expect(seen).toBe("req-1");
    expect(currentRequestId()).toBeUndefined();
  });

  it("adds the request id to an event's line (the tests' setup file chose text)", () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    withRequestId("req-2", () => log.event("enquiry", { outcome: "stored" }));
    log.event("enquiry", { outcome: "stored" });
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ event: "enquiry", outcome: "stored", reqId: "req-2" }),
      expect.not.objectContaining({ reqId: expect.anything() }),
    ]);
  });
});
