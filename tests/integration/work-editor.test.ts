import { readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workEditorCopy } from "~/wording/work-editor";
import { draftContent, publishContent } from "~/site-content/publish.server";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { interruptedCopy, notClips, phoneClip, phoneClipSecrets } from "../support/fixture-clips";
import { cameraLikeJpeg } from "../support/ready-photos";
import { runInbox } from "../support/inbox-command";
import { sendAs } from "../support/site-http";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * The owner's Work pages over plain HTTP, as a browser without JavaScript posts them, against the built server on
 * SQLite with real ffmpeg: a project added, described, refused in words (keeping what was typed), given a photo and a
 * phone's clip that carries where it was filmed; hostile files refused; the clip encoded in the background, then
 * published and served with byte ranges, with nothing of the phone's metadata in any served byte.
 */

const publicUrl = "http://work.example";
const temp = useTempDir("haunt-work-editor-");
const password = "a coffin full of moonlit bats";
const words = workEditorCopy;
let site: SiteServer;
let databasePath: string;
let cookie: string;
let store: InboxStore;

const cli = (args: string[], input = "") =>
  runInbox(args, { env: { DATABASE_URL: `file:${databasePath}`, PUBLIC_URL: publicUrl, API_HOST: "" }, input });

const send = (path: string, options: Parameters<typeof sendAs>[3] = {}) =>
  sendAs(publicUrl, site.url, path, { cookie, ...options });

const decoded = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

const page = async (path: string) => decoded((await send(path)).text);
const revisionIn = (html: string) => /name="revision" value="(\d+)"/.exec(html)![1]!;

/** An upload form as a browser sends it: the text fields first, then the file. */
async function upload(path: string, field: "photo" | "video", file: { bytes: Uint8Array; name: string }, fields = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  form.append(field, new File([new Uint8Array(file.bytes)], file.name, { type: "application/octet-stream" }));
  const encoded = new Response(form);
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  return send(`${path}?upload=${field}`, {
    method: "POST",
    upload: { bytes, contentType: encoded.headers.get("content-type")! },
  });
}

let projectPath = "";

beforeAll(async () => {
  await ensureBuilt();
  databasePath = join(temp.dir(), "inbox.db");
  expect((await cli(["operator", "add", "ann@example.com"], `${password}\n`)).status).toBe(0);
  site = await startSite({ API_HOST: "", DATABASE_URL: `file:${databasePath}`, PUBLIC_URL: publicUrl });
  const login = await sendAs(publicUrl, site.url, "/inbox/login", {
    method: "POST",
    body: { email: "ann@example.com", password, next: "/inbox/work" },
  });
  expect(login.status).toBe(302);
  cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;
  store = await openInboxStore({ kind: "sqlite", path: databasePath }, { timeoutMs: 10_000 });
}, 60_000);
afterAll(async () => {
  await site?.stop();
  await store?.close();
});

describe("the owner's Work page", () => {
  it("is for operators only, in the owner area's navigation, with Add a project", async () => {
    const visitor = await send("/inbox/work", { cookie: "" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.location).toBe("/inbox/login?next=%2Finbox%2Fwork");
    // Not logged in: an upload to a project's page is a login, whatever it carries, and nothing is stored.
    const form = new FormData();
    form.append("video", new File([new Uint8Array(64)], "clip.mp4"));
    const encoded = new Response(form);
    const upload = await send("/inbox/work/0123456789ab?upload=video", {
      cookie: "",
      method: "POST",
      upload: { bytes: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! },
    });
    expect(upload.status).toBe(302);
    expect(upload.headers.location).toMatch(/^\/inbox\/login\b/);
    expect(await store.listVideos()).toEqual([]);
    const html = await page("/inbox/work");
    expect(html).toMatch(/<a [^>]*href="\/inbox\/work"[^>]*>Work<\/a>/);
    expect(html).toContain(words.list.empty);
    expect(html).toContain('<label for="add-title" class="block font-medium text-bone-100">Title</label>');
    expect(html).toContain('<label for="add-service" class="block font-medium text-bone-100">Service</label>');
    expect(html).toMatch(/<button type="submit" name="intent" value="add"[^>]*>Add a project<\/button>/);
  });

  it("refuses a project without a title in words, keeping the service chosen, then adds one", async () => {
    const revision = revisionIn(await page("/inbox/work"));
    const refused = await send("/inbox/work", {
      method: "POST",
      body: { revision, intent: "add", title: "  ", service: "Custom pneumatic animatronics" },
    });
    expect(refused.status).toBe(400);
    const html = decoded(refused.text);
    expect(html).toContain("Please fill this in.");
    expect(html).toMatch(/<option value="Custom pneumatic animatronics" selected="">/);
    const added = await send("/inbox/work", {
      method: "POST",
      body: { revision, intent: "add", title: "Reaper with pneumatic lunge", service: "Custom pneumatic animatronics" },
    });
    expect(added.status).toBe(303);
    projectPath = added.headers.location!.replace(/\?.*$/, "");
    expect(projectPath).toMatch(/^\/inbox\/work\/[0-9a-f]{12}$/);
    const project = await page(added.headers.location!);
    expect(project).toContain(words.done.added);
    expect(project).toContain("Its address: /work/reaper-with-pneumatic-lunge");
    const list = await page("/inbox/work");
    expect(list).toContain("Reaper with pneumatic lunge");
    expect(list).toContain("Custom pneumatic animatronics · 0 photos, 0 clips");
    const activity = await page("/inbox/activity");
    expect(activity).toContain("work: project added");
  });

  it("saves the details; a bad year and a stale page are refused with what was typed kept", async () => {
    const html = await page(projectPath);
    const revision = revisionIn(html);
    const typed = {
      intent: "save",
      title: "Reaper with pneumatic lunge",
      service: "Custom pneumatic animatronics",
      client: "Nightmare Manor, Ohio",
      story: "A seven-foot reaper.\n\nIt lunges four feet in a quarter of a second.",
      featured: "on",
    };
    const badYear = await send(projectPath, { method: "POST", body: { revision, ...typed, year: "25" } });
    expect(badYear.status).toBe(400);
    const refused = decoded(badYear.text);
    expect(refused).toContain("Please enter a four-digit year from 2000 to 2100, or leave it empty.");
    expect(refused).toContain('value="Nightmare Manor, Ohio"');
    expect(refused).toContain("It lunges four feet in a quarter of a second.");
    const saved = await send(projectPath, { method: "POST", body: { revision, ...typed, year: "2025" } });
    expect(saved.status).toBe(303);
    const stale = await send(projectPath, { method: "POST", body: { revision, ...typed, client: "Somewhere else" } });
    expect(stale.status).toBe(409);
    const staleHtml = decoded(stale.text);
    expect(staleHtml).toMatch(/ann@example\.com/);
    expect(staleHtml).toContain('value="Somewhere else"');
  });

  it("takes a photo as the Photos page does, and refuses one without alt text, keeping the file's place", async () => {
    const bytes = new Uint8Array(await cameraLikeJpeg(7, 800, 600));
    const missingAlt = await upload(projectPath, "photo", { bytes, name: "IMG_2041.jpg" }, { alt: "" });
    expect(missingAlt.status).toBe(400);
    expect(decoded(missingAlt.text)).toContain("Please fill this in.");
    const uploaded = await upload(
      projectPath,
      "photo",
      { bytes, name: "IMG_2041.jpg" },
      { alt: "The reaper mid-lunge" },
    );
    expect(uploaded.status).toBe(303);
    const html = await page(projectPath);
    expect(html).toContain("Photo 1 (Cover)");
    expect(html).toContain('value="The reaper mid-lunge"');
  });

  it("refuses what is not a clip in words, and the site stays up", async () => {
    const dir = temp.dir();
    const { zip, html: webPage } = await notClips(dir);
    const phone = await phoneClip(dir, { seconds: 1, name: "short.MOV" });
    const cut = await interruptedCopy(dir, phone);
    for (const [path, expected] of [
      [zip, /not a video/i],
      [webPage, /not a video/i],
      [cut, /index is missing/i],
    ] as const) {
      const answer = await upload(projectPath, "video", { bytes: await readFile(path), name: "clip.mp4" });
      expect(answer.status, path).toBe(400);
      expect(decoded(answer.text), path).toMatch(expected);
    }
    const empty = await upload(projectPath, "video", { bytes: new Uint8Array(), name: "nothing.mp4" });
    expect(empty.status).toBe(400);
    expect((await send("/healthz")).status).toBe(200);
  });

  it("answers a clip past 200 MB, streamed, with 413 in words, and the site stays up", async () => {
    // Streamed a megabyte at a time, as a phone's browser sends it: neither side holds the 201 MB.
    const boundary = "----haunt-boundary";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="long.mp4"\r\n` +
        "Content-Type: video/mp4\r\n\r\n",
    );
    const megabyte = Buffer.alloc(1024 * 1024, 1);
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = httpRequest(`${site.url}${projectPath}?upload=video`, {
        method: "POST",
        headers: {
          Host: new URL(publicUrl).host,
          Origin: publicUrl,
          Cookie: cookie,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
        },
      });
      request.on("response", (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      });
      request.on("error", reject);
      void (async () => {
        request.write(head);
        for (let sent = 0; sent < 201 && !request.destroyed; sent++)
          if (!request.write(megabyte)) await new Promise((r) => request.once("drain", r));
        request.end(`\r\n--${boundary}--\r\n`);
      })();
    });
    expect(answer.status).toBe(413);
    expect(decoded(answer.text)).toContain("This file is larger than 200 MB.");
    expect((await send("/healthz")).status).toBe(200);
  });

  it("encodes a phone's clip in the background: progress, then ready with its poster; published, it is served with byte ranges and none of the phone's metadata", async () => {
    const clip = await phoneClip(temp.dir(), { seconds: 3 });
    const uploaded = await upload(projectPath, "video", { bytes: await readFile(clip), name: "IMG_0420.MOV" });
    expect(uploaded.status).toBe(303);
    expect(decoded((await send(uploaded.headers.location!)).text)).toContain(words.done.videoUploaded);
    await waitFor(
      async () => (await page(projectPath)).includes('data-clip-state="ready"'),
      "the clip encoded",
      90_000,
    );
    const html = await page(projectPath);
    expect(html).toMatch(/Ready: 3 s, \d+ × 720\./);

    const { content, revision } = await draftContent(store);
    const published = await publishContent(store, content, revision, "ann@example.com");
    expect(published.ok).toBe(true);
    const [video] = await store.listVideos(content.projects[0]!.videos.map((v) => v.video));
    const name = video!.clip!.name;
    const whole = await fetch(`${site.url}/media/${name}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(whole.headers.get("etag")).toBe(`"${name}"`);
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.length).toBe(video!.clip!.size);
    // The index before the pictures (faststart), and nothing the phone wrote.
    expect(bytes.indexOf("moov")).toBeLessThan(bytes.indexOf("mdat"));
    for (const secret of [
      phoneClipSecrets.location,
      "ISO6709",
      phoneClipSecrets.make,
      phoneClipSecrets.model,
      "2026-10-01",
    ])
      expect(bytes.includes(secret), secret).toBe(false);
    const range = await fetch(`${site.url}/media/${name}`, { headers: { Range: "bytes=100-1099" } });
    expect(range.status).toBe(206);
    expect(range.headers.get("content-range")).toBe(`bytes 100-1099/${bytes.length}`);
    expect(Buffer.from(await range.arrayBuffer()).equals(bytes.subarray(100, 1100))).toBe(true);
    const again = await fetch(`${site.url}/media/${name}`, { headers: { "If-None-Match": `"${name}"` } });
    expect(again.status).toBe(304);
    expect((await fetch(`${site.url}/media/${"0".repeat(24)}.mp4`)).status).toBe(404);
    expect((await fetch(`${site.url}/media/..%2Finbox.db`)).status).toBe(404);
    // The poster: a photo upload whose files are encoded from raw pixels (checked in the photo tests); its PNG has none.
    const poster = await store.getUpload(video!.clip!.posterUpload!);
    expect(poster?.contentType).toBe("image/png");
  }, 120_000);

  it("marks a clip that cannot be decoded failed with the reason in words, and encodes it again on Retry", async () => {
    // The index whole (so the upload's check reads it), the middle third of the pictures overwritten: decoding fails.
    const bytes = await readFile(await phoneClip(temp.dir(), { seconds: 2, name: "IMG_0666.MOV" }));
    const [mdat, moov] = [bytes.indexOf("mdat"), bytes.lastIndexOf("moov")];
    expect(moov).toBeGreaterThan(mdat);
    const third = Math.floor((moov - mdat) / 3);
    for (let at = mdat + third; at < mdat + 2 * third; at++) bytes[at] = (at * 7919) % 251;
    const uploaded = await upload(projectPath, "video", { bytes, name: "IMG_0666.MOV" });
    expect(uploaded.status).toBe(303);
    const { content } = await draftContent(store);
    const clips = content.projects[0]!.videos;
    const index = clips.length - 1;
    const id = clips[index]!.video;
    const failedHtml = async () => {
      const html = await page(projectPath);
      return html.split('data-clip-state="').filter((part) => part.startsWith("failed")).length === 1 ? html : null;
    };
    await waitFor(async () => (await failedHtml()) !== null, "the damaged clip failed", 60_000);
    expect(await failedHtml()).toContain("This clip is damaged (part of it cannot be read)");
    const failures = () =>
      site
        .output()
        .split("\n")
        .filter((line) => line.includes(`video: ${id}: failed`)).length;
    // The encoder logs the failure just before it stores it; the line may reach the pipe a moment after the page.
    await waitFor(() => failures() === 1, "the failure's log line", 10_000);

    const html = await page(projectPath);
    expect(html).toContain(`value="video-retry:${index}"`);
    const retried = await send(projectPath, {
      method: "POST",
      body: { revision: revisionIn(html), video: id, intent: `video-retry:${index}` },
    });
    expect(retried.status).toBe(303);
    const [entry] = await store.listActivity({ limit: 1 });
    expect(entry).toMatchObject({ action: "work: clip encoding retried", detail: "Reaper with pneumatic lunge" });
    // Encoded again from the start (the same damage, so the same reason): a second attempt, not the first one's answer.
    // The second failure's line comes before its row is stored: wait for both.
    await waitFor(
      async () => failures() === 2 && (await store.getVideo(id))?.state === "failed",
      "the clip encoded again and failed again",
      60_000,
    );
    expect((await store.getVideo(id))!).toMatchObject({ state: "failed", attempts: 1 });
    // A clip that is not failed has no Retry, and a Retry posted for it changes nothing.
    const ready = clips[0]!.video;
    const again = await send(projectPath, {
      method: "POST",
      body: { revision: revisionIn(await page(projectPath)), video: ready, intent: "video-retry:0" },
    });
    expect(again.status).toBe(303);
    expect((await store.getVideo(ready))!.state).toBe("ready");
  }, 120_000);
});
