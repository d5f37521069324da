import { describe, expect, it, vi } from "vitest";
import { maxBodyBytes } from "~/enquiry/fields";
import { discardBody, mediaType, readBodyCapped } from "~/http/body.server";

/** A body of `total` bytes served in `chunk`-sized pieces, recording how much has been pulled and whether it ended. */
function countingBody(total: number, chunk = 16 * 1024) {
  const state = { pulled: 0, closed: false, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= total) {
        state.closed = true;
        controller.close();
        return;
      }
      const size = Math.min(chunk, total - state.pulled);
      state.pulled += size;
      controller.enqueue(new Uint8Array(size).fill(97));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request("http://site.test/contact", { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("readBodyCapped", () => {
  it("reads a small body whole", async () => {
    const result = await readBodyCapped(post("name=Jane&email=j%40example.com"), maxBodyBytes);
    expect(result.ok).toBe(true);
    if (result.ok) expect(new TextDecoder().decode(result.bytes)).toBe("name=Jane&email=j%40example.com");
  });

  it("reads a request without a body as empty", async () => {
    const result = await readBodyCapped(new Request("http://site.test/contact"), maxBodyBytes);
    expect(result).toEqual({ ok: true, bytes: new Uint8Array() });
  });

  it("accepts exactly the cap and refuses one byte more (streamed, no Content-Length)", async () => {
    const atCap = await readBodyCapped(post(countingBody(maxBodyBytes).stream), maxBodyBytes);
    expect(atCap.ok && atCap.bytes.byteLength).toBe(maxBodyBytes);
    expect(await readBodyCapped(post(countingBody(maxBodyBytes + 1).stream), maxBodyBytes)).toEqual({
      ok: false,
      reason: "too-large",
    });
  });

  it("refuses a declared Content-Length over the cap at once, without waiting for the body", async () => {
    // A body that never arrives: the answer must not depend on it.
    const never = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const result = await readBodyCapped(post(never, { "Content-Length": String(maxBodyBytes + 1) }), maxBodyBytes);
    expect(result).toEqual({ ok: false, reason: "too-large" });
  });

  it("refuses a declared Content-Length over the cap and throws the body away in the background", async () => {
    const { stream, state } = countingBody(2 * 1024 * 1024);
    const result = await readBodyCapped(post(stream, { "Content-Length": String(2 * 1024 * 1024) }), maxBodyBytes);
    expect(result).toEqual({ ok: false, reason: "too-large" });
    await vi.waitFor(() => expect(state.closed, "the refused body to be drained").toBe(true), { timeout: 5_000 });
    expect(state.cancelled).toBe(false);
  });

  it("stops keeping a chunked body once it passes the cap, then drains the rest instead of cancelling", async () => {
    const chunk = 16 * 1024;
    const { stream, state } = countingBody(2 * 1024 * 1024, chunk);
    const result = await readBodyCapped(post(stream), maxBodyBytes);
    expect(result).toEqual({ ok: false, reason: "too-large" });
    // Answered after reading just past the cap (plus what the stream had queued), not after the whole 2 MB.
    expect(state.pulled).toBeLessThanOrEqual(maxBodyBytes + 3 * chunk);
    // Cancelling would destroy the server's socket before the 413 is written; draining keeps the connection usable.
    await vi.waitFor(() => expect(state.closed, "the rest of the body to be drained").toBe(true), { timeout: 5_000 });
    expect(state.cancelled).toBe(false);
  });

  it("does not trust a Content-Length that understates the body", async () => {
    const { stream } = countingBody(maxBodyBytes * 2);
    const result = await readBodyCapped(post(stream, { "Content-Length": "10" }), maxBodyBytes);
    expect(result).toEqual({ ok: false, reason: "too-large" });
  });

  it("ignores a Content-Length that is not a number and reads the body", async () => {
    const result = await readBodyCapped(post("abc", { "Content-Length": "lots" }), maxBodyBytes);
    expect(result.ok && new TextDecoder().decode(result.bytes)).toBe("abc");
  });

  it("survives a body that fails while being drained", async () => {
    let sent = 0;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > maxBodyBytes * 2) return controller.error(new Error("client went away"));
        sent += 32 * 1024;
        controller.enqueue(new Uint8Array(32 * 1024));
      },
    });
    expect(await readBodyCapped(post(failing), maxBodyBytes)).toEqual({ ok: false, reason: "too-large" });
    await vi.waitFor(() => expect(sent > maxBodyBytes * 2, "the failing body to be drained").toBe(true), {
      timeout: 5_000,
    });
  });
});

describe("discardBody", () => {
  it("drains an unread body and leaves a used or locked one alone", async () => {
    const { stream, state } = countingBody(256 * 1024);
    discardBody(post(stream));
    await vi.waitFor(() => expect(state.closed, "the body to be drained").toBe(true), { timeout: 5_000 });

    const locked = post("abc");
    locked.body!.getReader();
    expect(() => discardBody(locked)).not.toThrow();
    expect(() => discardBody(new Request("http://site.test/"))).not.toThrow();
  });
});

describe("mediaType", () => {
  it.each([
    ["application/json", "application/json"],
    ["Application/JSON; charset=utf-8", "application/json"],
    ["  application/x-www-form-urlencoded ;charset=UTF-8", "application/x-www-form-urlencoded"],
    ["multipart/form-data; boundary=----x", "multipart/form-data"],
  ])("reads %j as %s", (header, expected) => {
    expect(mediaType(post("x", { "Content-Type": header }))).toBe(expected);
  });

  it("is empty without a Content-Type", () => {
    expect(mediaType(new Request("http://site.test/"))).toBe("");
  });
});
