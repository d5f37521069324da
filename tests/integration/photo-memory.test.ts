import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { photosEditorCopy } from "~/wording/photos-editor";
import { decodeCost, photoLimits, pixelHeader } from "~/photos/limits";
import { runInbox } from "../support/inbox-command";
import { interlaced16BitPng, largeCameraJpeg } from "../support/fixture-photos.mjs";
import { sendAs } from "../support/site-http";
import { ensureBuilt, projectRoot, startSite, waitFor, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * The photo upload's memory attacks, against the built server started with `npm start`'s heap flags and
 * malloc settings: a decompression bomb under the pixel cap (a 16-bit interlaced PNG) refused with a plain message from its header,
 * the largest one admitted encoded, and four ~25 MB camera JPEGs posted at once, all while the server's peak RSS
 * (VmHWM, read from /proc: a budget check, not a timing) stays within 256 MiB.
 */

const publicUrl = "http://photos.example";
const temp = useTempDir("haunt-photo-memory-");
const password = "a coffin full of moonlit bats";
const words = photosEditorCopy;
const budget = 256 * 1024 * 1024;
let site: SiteServer;
let databasePath: string;
let cookie: string;

/** `npm start`'s malloc settings and node flags, from package.json, for a server started here. */
function startEnvironment(): Record<string, string> {
  const start = (JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as { scripts: { start: string } })
    .scripts.start;
  const env: Record<string, string> = {};
  for (const [, name, value] of start.matchAll(/\b([A-Z_]+)=(\S+)/g)) env[name!] = value!;
  const flags = start.match(/--max-[a-z-]+=\d+/g) ?? [];
  expect(flags.length, start).toBeGreaterThan(0);
  return { ...env, NODE_OPTIONS: flags.join(" ") };
}

/** The server process's peak resident memory so far (VmHWM), in bytes. */
const peakRss = () =>
  Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${site.pid}/status`, "utf8"))?.[1] ?? NaN) * 1024;

const decoded = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

async function upload(fields: { alt: string; place: string }, file: { bytes: Uint8Array; name: string; type: string }) {
  const form = new FormData();
  form.append("alt", fields.alt);
  form.append("place", fields.place);
  form.append("photo", new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
  const encoded = new Response(form);
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  return sendAs(publicUrl, site.url, "/inbox/site/photos", {
    method: "POST",
    cookie,
    upload: { bytes, contentType: encoded.headers.get("content-type")! },
  });
}

function expectRefusedInWords(answer: { status: number; text: string }, message: string, kept: { alt: string }) {
  expect(answer.status).toBe(400);
  const html = decoded(answer.text);
  expect(/<div[^>]*role="alert"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1] ?? "").toContain(message);
  expect(html).toContain(`<p id="upload-photo-error" class="mt-1 text-sm font-semibold text-red-300">${message}</p>`);
  expect(html).toMatch(new RegExp(`<input id="upload-alt"[^>]*value="${kept.alt}"`));
  expect(html).toMatch(/<option value="slide-2" selected="">Carousel slide 2<\/option>/);
}

const uploads = () => {
  const db = new DatabaseSync(databasePath, { readOnly: true });
  try {
    return Number((db.prepare("SELECT COUNT(*) AS n FROM photo_uploads").get() as { n: number }).n);
  } finally {
    db.close();
  }
};
const renditionStates = () => {
  const db = new DatabaseSync(databasePath, { readOnly: true });
  try {
    return (db.prepare("SELECT state FROM photo_renditions").all() as { state: string }[]).map((row) => row.state);
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  await ensureBuilt();
  databasePath = join(temp.dir(), "inbox.db");
  const added = await runInbox(["operator", "add", "ann@example.com"], {
    env: { DATABASE_URL: `file:${databasePath}`, PUBLIC_URL: publicUrl, API_HOST: "" },
    input: `${password}\n`,
  });
  expect(added.status, added.stderr).toBe(0);
  site = await startSite({
    API_HOST: "",
    DATABASE_URL: `file:${databasePath}`,
    PUBLIC_URL: publicUrl,
    ...startEnvironment(),
  });
  const login = await sendAs(publicUrl, site.url, "/inbox/login", {
    method: "POST",
    body: { email: "ann@example.com", password, next: "/inbox/site/photos" },
  });
  expect(login.status).toBe(302);
  cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;
}, 60_000);
afterAll(() => site?.stop());

describe("photo uploads within the memory budget", () => {
  it("refuses a 7000 x 7000 interlaced 16-bit RGBA PNG (under 50 megapixels) from its header, with a plain message", async () => {
    const bomb = await interlaced16BitPng(7000, 7000);
    // It is what the attack sent: a few hundred KB, 16 bits per sample, interlaced, 392 MB decoded.
    const header = await sharp(bomb).metadata();
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    expect(header).toMatchObject({ format: "png", width: 7000, height: 7000, channels: 4, depth: "ushort" });
    expect(header.isProgressive).toBe(true);
    const cost = decodeCost(pixelHeader(header));
    expect(cost).toEqual({ kind: "whole-png", bytes: 7000 * 7000 * 4 * 2 });
    const before = uploads();
    const answer = await upload(
      { alt: "Kept as typed", place: "slide-2" },
      { bytes: bomb, name: "bomb.png", type: "image/png" },
    );
    const message = words.errors.tooCostly("whole-png", cost.bytes, photoLimits.maxDecodeBytes);
    // In the page's megabytes (MiB, as its "25 MB" cap): 392,000,000 bytes are 374.
    expect(message).toContain("374 MB");
    expect(message).toContain("48 MB for one photo");
    expect(message).toMatch(/JPEG/);
    expectRefusedInWords(answer, message, { alt: "Kept as typed" });
    expect(uploads()).toBe(before);
    expect(peakRss()).toBeLessThanOrEqual(budget);
  }, 60_000);

  it("takes the costliest interlaced PNG the limit admits and encodes it, within the budget", async () => {
    // 2500 x 2500 x 4 channels x 2 bytes: just under 48 MiB decoded.
    const photo = await interlaced16BitPng(2500, 2500);
    const cost = decodeCost(pixelHeader(await sharp(photo).metadata()));
    expect(cost.kind).toBe("whole-png");
    expect(cost.bytes).toBeLessThanOrEqual(photoLimits.maxDecodeBytes);
    expect(cost.bytes).toBeGreaterThan(photoLimits.maxDecodeBytes * 0.99);
    const answer = await upload(
      { alt: "A purple fog", place: "slide-1" },
      { bytes: photo, name: "fog.png", type: "image/png" },
    );
    expect(answer.status, decoded(answer.text).slice(0, 400)).toBe(303);
    await waitFor(
      () => renditionStates().some((state) => state !== "pending" && state !== "encoding"),
      "the encoding",
      50_000,
    );
    expect(renditionStates()).toEqual(["ready"]);
    expect(peakRss()).toBeLessThanOrEqual(budget);
  }, 60_000);

  it("takes four ~25 MB camera JPEGs posted at once, one at a time, within the budget", async () => {
    const photos = await Promise.all([1, 2, 3, 4].map((seed) => largeCameraJpeg({ width: 6000, height: 4400, seed })));
    for (const bytes of photos) {
      expect(bytes.byteLength).toBeGreaterThan(24 * 1000 * 1000);
      expect(bytes.byteLength).toBeLessThanOrEqual(photoLimits.maxBytes);
    }
    const before = uploads();
    const answers = await Promise.all(
      photos.map((bytes, index) =>
        upload({ alt: `Prop ${index + 1}`, place: "none" }, { bytes, name: `IMG_${index}.JPG`, type: "image/jpeg" }),
      ),
    );
    for (const answer of answers) {
      // Past the queue's limit an upload would be a 503 with a plain message with Retry-After; four are within it.
      expect(answer.status, decoded(answer.text).slice(0, 400)).toBe(303);
      expect(answer.headers.location).toBe("/inbox/site/photos?done=uploaded");
    }
    expect(uploads()).toBe(before + 4);
    expect(peakRss()).toBeLessThanOrEqual(budget);
  }, 60_000);
});
