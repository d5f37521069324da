import { createHash } from "node:crypto";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { readUpload, uploadId } from "~/photos/upload.server";

/** The upload's reader on requests made here (the built server's answers: tests/integration/photo-upload.test.ts). */

const jpeg = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: "#884422" } })
    .jpeg()
    .toBuffer();

async function multipart(fields: Record<string, string>, file?: Uint8Array, { chunked = false } = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append("photo", new File([new Uint8Array(file)], "IMG_0001.JPG", { type: "image/jpeg" }));
  const encoded = new Response(form);
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  const type = encoded.headers.get("content-type")!;
  // In small pieces and without a Content-Length, as a chunked post arrives.
  const body = chunked
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 100) controller.enqueue(bytes.subarray(at, at + 100));
          controller.close();
        },
      })
    : bytes;
  const headers: Record<string, string> = { "Content-Type": type };
  if (!chunked) headers["Content-Length"] = String(bytes.length);
  return new Request("http://site.example/inbox/site/photos", { method: "POST", headers, body, duplex: "half" });
}

describe("the upload's reader", () => {
  it("reads the fields and the photo, its type and size by its bytes, with or without a Content-Length", async () => {
    const photo = await jpeg();
    for (const chunked of [false, true]) {
      const read = await readUpload(await multipart({ alt: "A bat", place: "about" }, photo, { chunked }), 1 << 20);
      expect(read.ok).toBe(true);
      if (!read.ok) continue;
      expect(read.fields).toEqual({ alt: "A bat", place: "about" });
      expect(read.photo).toMatchObject({ contentType: "image/jpeg", width: 64, height: 48, fileName: "IMG_0001.JPG" });
      expect(Buffer.from(read.photo.bytes).equals(photo)).toBe(true);
    }
    expect(uploadId(photo)).toBe(createHash("sha256").update(photo).digest("hex").slice(0, 24));
  });

  it("stops at the cap, keeping the fields read before the file", async () => {
    const read = await readUpload(await multipart({ alt: "Kept", place: "slide-2" }, new Uint8Array(5000)), 2000);
    expect(read).toEqual({ ok: false, fields: { alt: "Kept", place: "slide-2" }, problem: "tooLarge", status: 413 });
  });

  it("refuses a post that is not a multipart form, and a multipart form cut off, in its own words", async () => {
    const plain = new Request("http://site.example/", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "alt=x",
    });
    expect(await readUpload(plain, 1 << 20)).toMatchObject({ ok: false, problem: "notMultipart" });
    const whole = await multipart({ alt: "x", place: "slide-1" }, await jpeg());
    const cut = new Uint8Array(await whole.arrayBuffer()).subarray(0, 300);
    const request = new Request("http://site.example/", {
      method: "POST",
      headers: { "Content-Type": whole.headers.get("content-type")! },
      body: cut,
    });
    expect(await readUpload(request, 1 << 20)).toMatchObject({ ok: false, problem: "notMultipart" });
  });
});
