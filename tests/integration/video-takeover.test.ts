import { randomBytes } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import type { VideoUpload } from "~/store/videos.types";
import { phoneClip } from "../support/fixture-clips";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * A server killed with -9 in the middle of encoding a clip: its ffmpeg dies with it (no orphan encoding on for up to
 * the time cap), the upload stays pending with no clip, and the next instance takes it over once the lease runs out
 * and encodes it once.
 */

const temp = useTempDir("haunt-video-takeover-");
const sites: SiteServer[] = [];
let store: InboxStore;
let databaseUrl: string;

beforeAll(async () => {
  await ensureBuilt();
  const path = temp.file("inbox.db");
  databaseUrl = `file:${path}`;
  store = await openInboxStore({ kind: "sqlite", path }, { timeoutMs: 10_000 });
}, 60_000);
afterAll(async () => {
  await Promise.all(sites.map((site) => site.stop()));
  await store?.close();
});

/** The processes whose parent is `pid`, with their command name and state (a zombie is "Z"). */
function childrenOf(pid: number): { pid: number; name: string; state: string }[] {
  const found = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": the name may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (Number(ppid) === pid) found.push({ pid: Number(entry), name, state: state! });
    } catch {
      // Gone while listed.
    }
  }
  return found;
}

/** Running (not a zombie left for a parent that does not reap): what still takes CPU. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** The instances' temp folder: one, as two servers in one container share it. */
let sharedTmp: string;

async function site(): Promise<SiteServer> {
  const started = await startSite({
    API_HOST: "",
    DATABASE_URL: databaseUrl,
    PHOTO_LEASE_MS: "3000",
    MEDIA_CACHE_DIR: temp.dir(),
    TMPDIR: (sharedTmp ??= temp.dir()),
  });
  sites.push(started);
  return started;
}

describe("a server killed while it encodes a clip", () => {
  it(
    "takes its ffmpeg along; another instance takes the clip over after the lease and encodes it once",
    { timeout: 60_000 },
    async () => {
      const id = randomBytes(12).toString("hex");
      // 4 s of 720p: seconds of encoding; the kill comes as soon as its ffmpeg is seen running.
      const path = await phoneClip(temp.dir(), { seconds: 4 });
      const saved = await store.saveVideoUpload(
        {
          id,
          fileName: "IMG_0420.MOV",
          contentType: "video/quicktime",
          durationMs: 4_000,
          width: 1280,
          height: 720,
          uploadedBy: "ann@example.com",
        },
        path,
      );
      expect(saved).toBe(true);

      const first = await site();
      let ffmpeg: { pid: number; name: string } | undefined;
      await waitFor(
        () => {
          ffmpeg = childrenOf(first.pid).find((child) => child.name === "ffmpeg" && child.state !== "Z");
          return ffmpeg !== undefined;
        },
        "the first server's ffmpeg running",
        30_000,
      );
      await first.kill("SIGKILL");
      await waitFor(() => !running(ffmpeg!.pid), "its ffmpeg gone with it", 5_000);

      const left = (await store.getVideo(id))!;
      expect(left).toMatchObject({ state: "pending", clip: null, attempts: 1 });
      // What it was encoding is still on disk: nobody was left to remove it.
      const killedScratch = () =>
        readdirSync(sharedTmp).filter((name) => name.startsWith(`haunt-scratch-${first.pid}-`));
      expect(killedScratch()).toEqual([expect.stringMatching(/-video-/)]);

      // Started once the lease has run out, so its first look claims the clip (rather than its next, 5 s later).
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const second = await site();
      // The next start sweeps it (app/scratch.server.ts), before it takes any work.
      expect(killedScratch()).toEqual([]);
      expect(second.output()).toContain("removed 1 temporary folder(s) left by processes that stopped mid-work");
      let done: VideoUpload | null = null;
      await waitFor(
        async () => {
          done = await store.getVideo(id);
          return done?.state === "ready" || done?.state === "failed";
        },
        "the clip encoded by the second server",
        45_000,
      );
      const ready = done as unknown as VideoUpload;
      expect(ready).toMatchObject({ state: "ready", progress: 100, attempts: 2, error: null });
      const served = await fetch(`${second.url}/media/${ready.clip!.name}`);
      expect(served.status).toBe(200);
      expect(Number(served.headers.get("content-length"))).toBeGreaterThan(0);
      await served.arrayBuffer();
      expect(second.output()).not.toMatch(/attempt \d failed/);
    },
  );
});
