export type BodyRead = { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; reason: "too-large" };

/**
 * Reads a request body up to maxBytes. A declared Content-Length over the cap is refused without keeping anything;
 * a chunked body is kept only until it passes the cap. Either way the rest of a refused body is read and thrown
 * away in the background (see discardBody), so the refusal reaches the client and the connection stays usable.
 */
export async function readBodyCapped(request: Request, maxBytes: number): Promise<BodyRead> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    discardBody(request);
    return { ok: false, reason: "too-large" };
  }
  if (!request.body) return { ok: true, bytes: new Uint8Array() };
  return readCapped(request.body, maxBytes, "drain");
}

/**
 * Reads a stream up to maxBytes. Past that, the rest is drained in the background (a request body: the connection
 * stays usable) or cancelled (an upstream's answer: nothing more is wanted from it).
 */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  rest: "drain" | "cancel",
): Promise<BodyRead> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      if (rest === "drain") drain(reader);
      else await reader.cancel().catch(() => {});
      return { ok: false, reason: "too-large" };
    }
    chunks.push(value);
  }
  return { ok: true, bytes: new Uint8Array(Buffer.concat(chunks)) };
}

/**
 * Throws away a body the server will not read, without waiting for it. Cancelling the stream instead would destroy
 * the Node request and its socket, so the client would get a connection reset instead of the response; leaving it
 * unread would stall the next request on that keep-alive connection. This is what Node itself does with a body
 * nobody reads; an endless body is cut off by the HTTP server's own request timeout.
 */
export function discardBody(request: Request): void {
  if (request.body && !request.bodyUsed && !request.body.locked) drain(request.body.getReader());
}

/** Reads the rest of a stream in the background and throws it away (see discardBody). */
export function drain(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  void (async () => {
    try {
      while (!(await reader.read()).done) {
        // discard
      }
    } catch {
      // the client went away: nothing left to discard
    }
  })();
}

/** The media type of a request, lower-cased and without parameters. */
export function mediaType(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}
