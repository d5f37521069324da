import { Transform, type TransformCallback } from "node:stream";

/**
 * Joins the chunks written in one turn of the event loop into a single chunk.
 *
 * React's renderToPipeableStream writes a document in 2 KB pieces, and Remix's server adapter calls `res.flush()`
 * after every chunk it forwards, so remix-serve's compression middleware compressed and flushed each piece on its
 * own: about eight brotli/gzip flushes and socket writes per page, and a larger compressed body (each flush ends a
 * block). React writes everything that is ready in one synchronous burst, so collecting a burst and passing it on at
 * the next turn keeps streaming (a later Suspense boundary still goes out as soon as it resolves) while the
 * compressor sees one chunk per burst instead of one per 2 KB.
 */
export class CoalesceChunks extends Transform {
  private pending: Buffer[] = [];
  private scheduled = false;
  private rewriteFirst: ((text: string) => string) | undefined;

  /** `rewriteFirstBurst` edits the first chunk (with onAllReady, the whole document) before it is passed on. */
  constructor(options: { rewriteFirstBurst?: (text: string) => string } = {}) {
    super();
    this.rewriteFirst = options.rewriteFirstBurst;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.pending.push(chunk);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.release());
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    this.release();
    callback();
  }

  private release(): void {
    this.scheduled = false;
    if (this.pending.length === 0 || this.destroyed) return;
    const chunk = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    const rewrite = this.rewriteFirst;
    this.rewriteFirst = undefined;
    this.push(rewrite ? rewritten(chunk, rewrite) : chunk);
  }
}

/** A rewrite that throws must not take the server down (this runs outside any request's promise): send it as it is. */
function rewritten(chunk: Buffer, rewrite: (text: string) => string): Buffer {
  try {
    return Buffer.from(rewrite(chunk.toString("utf8")));
  } catch (error) {
    console.error(error);
    return chunk;
  }
}
