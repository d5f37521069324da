import { describe, expect, it } from "vitest";
import { placementKey, posterKey, renditionKey } from "~/site-content/photo-renditions.server";
import type { RenditionEntry } from "~/site-content/public-photos.server";
import { workAt, workFrom, workList, workPaths, type PublicWork } from "~/site-content/public-work.server";
import {
  defaultSiteContent,
  validateSiteContent,
  type PhotoPlacement,
  type Project,
  type SiteContent,
} from "~/site-content/schema.server";
import { coverPreview, isoDuration, projectHead, projectJsonLd } from "~/site-content/work-head.server";
import type { PhotoRendition } from "~/store/photos.types";
import type { VideoUpload } from "~/store/videos.types";

const origin = "https://grimforge.example";
const hex24 = (n: number) => n.toString(16).padStart(24, "0");

const entry = (name: string): RenditionEntry => ({
  width: 1600,
  height: 1200,
  avif: [480, 720, 1080, 1600].map((width) => ({ width, src: `/photos/${name}-${width}.avif` })),
  webp: [480, 720, 1080, 1600].map((width) => ({ width, src: `/photos/${name}-${width}.webp` })),
  jpeg: [480, 720, 1080, 1600].map((width) => ({ width, src: `/photos/${name}-${width}.jpg` })),
  placeholder: "data:image/webp;base64,AAAA",
});

const photo = (n: number, alt: string): PhotoPlacement => ({ upload: hex24(n), alt, focus: { x: 0.5, y: 0.5 } });

function ready(placement: PhotoPlacement, name: string, state: PhotoRendition["state"] = "ready"): PhotoRendition {
  return {
    key: placementKey({ shape: "work", photo: placement }),
    uploadId: placement.upload,
    shape: "work",
    focus: placement.focus,
    state,
    done: 0,
    total: 0,
    entry: state === "ready" ? JSON.stringify(entry(name)) : null,
    error: null,
  };
}

const posterRendition = (upload: string): PhotoRendition => ({
  key: posterKey(upload),
  uploadId: upload,
  shape: "poster",
  focus: { x: 0.5, y: 0.5 },
  state: "ready",
  done: 0,
  total: 0,
  entry: JSON.stringify({ ...entry("poster"), width: 1280, height: 720 }),
  error: null,
});

function video(n: number, state: VideoUpload["state"], posterUpload: string | null = null): VideoUpload {
  return {
    id: hex24(n),
    fileName: `clip-${n}.mov`,
    contentType: "video/quicktime",
    durationMs: 42_400,
    width: 1920,
    height: 1080,
    uploadedBy: "owner@grimforge.example",
    byteSize: 1000,
    uploadedAt: new Date("2026-03-01T10:00:00Z"),
    state,
    progress: state === "ready" ? 100 : 40,
    attempts: 1,
    error: null,
    clip:
      state === "ready"
        ? { name: `${hex24(n + 100)}.mp4`, size: 500, width: 1280, height: 720, durationMs: 42_400, posterUpload }
        : null,
    readyAt: state === "ready" ? new Date("2026-03-01T10:05:00Z") : null,
  };
}

const reaperCover = photo(1, "The reaper lunging from its crypt");
const reaperSide = photo(2, "The reaper's pneumatic rig");
const wallCover = photo(3, "A crumbling asylum wall");

const project = (fields: Partial<Project> & Pick<Project, "id" | "slug" | "title">): Project => ({
  formerSlugs: [],
  service: null,
  year: null,
  client: "",
  story: "",
  photos: [],
  videos: [],
  featured: false,
  ...fields,
});

const [electric, pneumatic, , scenic] = defaultSiteContent.services.map((service) => service.name);

const content: SiteContent = {
  ...defaultSiteContent,
  projects: [
    project({
      id: "000000000001",
      slug: "asylum-wall",
      title: "Asylum wall",
      service: scenic!,
      year: 2024,
      photos: [wallCover],
    }),
    project({
      id: "000000000002",
      slug: "crypt-reaper",
      formerSlugs: ["reaper"],
      title: "Crypt reaper",
      service: pneumatic!,
      year: 2025,
      client: "Nightmare Manor, Salem",
      story:
        "A seven-foot reaper that lunges from its crypt.\n\nIt runs on 80 psi and a relay board.\r\n  \nBuilt in six weeks.",
      photos: [reaperCover, reaperSide],
      videos: [{ video: hex24(7) }, { video: hex24(8) }],
      featured: true,
    }),
    project({ id: "000000000003", slug: "bare-bones", title: "Bare bones" }),
  ],
};

const renditions = [ready(wallCover, "wall"), ready(reaperCover, "reaper"), ready(reaperSide, "side", "pending")];
const videos = [video(7, "ready", hex24(50)), video(8, "pending")];

const work: PublicWork = workFrom(content, [...renditions, posterRendition(hex24(50))], videos);

describe("the Work pages' view of the content", () => {
  it("the content parses as the schema has it (the fixture is a real site's)", () => {
    expect(validateSiteContent(content)).toMatchObject({ ok: true });
  });

  it("orders the projects featured first, then in the owner's order", () => {
    expect(work.projects.map((shown) => shown.slug)).toEqual(["crypt-reaper", "asylum-wall", "bare-bones"]);
  });

  it("shows only photos whose rendition is ready, with their alt text; the first shown is the cover", () => {
    const reaper = work.projects[0]!;
    expect(reaper.photos).toEqual([{ ...entry("reaper"), alt: reaperCover.alt }]);
    expect(work.projects[2]!.photos).toEqual([]);
    // A rendition of the same upload in another shape or focus is not this placement's.
    const elsewhere = { ...ready(wallCover, "wall"), key: renditionKey(wallCover.upload, "about", wallCover.focus) };
    expect(workFrom(content, [elsewhere], []).projects[1]!.photos).toEqual([]);
    // An entry this code cannot read is not shown either.
    const broken = { ...ready(wallCover, "wall"), entry: "{not json" };
    expect(workFrom(content, [broken], []).projects[1]!.photos).toEqual([]);
  });

  it("shows only the clips that are encoded: their file under /media, size, length, date and poster", () => {
    expect(work.projects[0]!.clips).toEqual([
      {
        src: `/media/${hex24(107)}.mp4`,
        width: 1280,
        height: 720,
        durationMs: 42_400,
        uploadDate: "2026-03-01T10:05:00.000Z",
        poster: { webp: "/photos/poster-720.webp", jpeg: "/photos/poster-720.jpg", width: 1280, height: 720 },
      },
    ]);
    // A poster still encoding: the clip plays without one.
    expect(workFrom(content, renditions, videos).projects[0]!.clips[0]!.poster).toBeNull();
    expect(workFrom(content, renditions, [video(7, "failed"), video(8, "receiving")]).projects[0]!.clips).toEqual([]);
  });

  it("splits the story into paragraphs at blank lines", () => {
    expect(work.projects[0]!.paragraphs).toEqual([
      "A seven-foot reaper that lunges from its crypt.",
      "It runs on 80 psi and a relay board.",
      "Built in six weeks.",
    ]);
  });

  it("lists the services that have a project, in the services' order, each with its address", () => {
    expect(work.services).toEqual([
      { name: pneumatic, slug: "custom-pneumatic-animatronics" },
      { name: scenic, slug: "scenic-design-and-building" },
    ]);
    expect(work.services.map((service) => service.name)).not.toContain(electric);
  });

  it("/work: every card, All current; a service's page: its cards only, its filter current", () => {
    const all = workList(work, null)!;
    expect(all.cards.map((card) => [card.href, card.title, card.service, card.year, card.cover?.alt ?? null])).toEqual([
      ["/work/crypt-reaper", "Crypt reaper", pneumatic, 2025, reaperCover.alt],
      ["/work/asylum-wall", "Asylum wall", scenic, 2024, wallCover.alt],
      ["/work/bare-bones", "Bare bones", null, null, null],
    ]);
    expect(all.filters).toEqual([
      { label: null, href: "/work", current: true },
      { label: pneumatic, href: "/work/custom-pneumatic-animatronics", current: false },
      { label: scenic, href: "/work/scenic-design-and-building", current: false },
    ]);
    const scenicList = workList(work, "scenic-design-and-building")!;
    expect(scenicList.service).toEqual({ name: scenic, slug: "scenic-design-and-building" });
    expect(scenicList.cards.map((card) => card.title)).toEqual(["Asylum wall"]);
    expect(scenicList.filters.filter((filter) => filter.current).map((filter) => filter.label)).toEqual([scenic]);
    // A service without a project has no page.
    expect(workList(work, "custom-electric-animatronics")).toBeNull();
  });

  it("a site without projects has no Work pages and no Work addresses", () => {
    const none = workFrom(defaultSiteContent, [], []);
    expect(none.projects).toEqual([]);
    expect(workList(none, null)).toBeNull();
    expect(workPaths(none)).toEqual([]);
    expect(workAt(none, "custom-pneumatic-animatronics")).toEqual({ kind: "missing" });
  });

  it("/work/{slug}: a project, a service's list, a former slug moved to the current address, or missing", () => {
    expect(workAt(work, "crypt-reaper")).toMatchObject({ kind: "project", project: { title: "Crypt reaper" } });
    expect(workAt(work, "custom-pneumatic-animatronics")).toMatchObject({ kind: "service" });
    expect(workAt(work, "reaper")).toEqual({ kind: "moved", to: "/work/crypt-reaper" });
    expect(workAt(work, "nothing-here")).toEqual({ kind: "missing" });
    expect(workAt(work, "constructor")).toEqual({ kind: "missing" });
  });

  it("the sitemap's addresses: /work, each service with a project, each project", () => {
    expect(workPaths(work)).toEqual([
      "/work",
      "/work/custom-pneumatic-animatronics",
      "/work/scenic-design-and-building",
      "/work/crypt-reaper",
      "/work/asylum-wall",
      "/work/bare-bones",
    ]);
  });
});

describe("a project page's head", () => {
  const reaper = work.projects[0]!;
  const shown = {
    site: {
      business: { name: "Grimforge Haunt Props" },
      photos: { social: { src: "/social.jpg", width: 1200, height: 630 } },
    },
    preview: false,
  } as Parameters<typeof projectHead>[1];

  it("durations in ISO 8601", () => {
    expect([42_400, 999, 60_000, 65_000, 3_725_000].map(isoDuration)).toEqual([
      "PT42S",
      "PT1S",
      "PT1M",
      "PT1M5S",
      "PT62M5S",
    ]);
  });

  it("JSON-LD: a CreativeWork with its first paragraph, cover images, year and a VideoObject per clip", () => {
    expect(projectJsonLd(reaper, "Grimforge Haunt Props", origin)).toEqual({
      "@context": "https://schema.org",
      "@type": "CreativeWork",
      name: "Crypt reaper",
      description: "A seven-foot reaper that lunges from its crypt.",
      url: `${origin}/work/crypt-reaper`,
      image: [`${origin}/photos/reaper-1600.jpg`],
      dateCreated: "2025",
      genre: pneumatic,
      creator: { "@type": "LocalBusiness", "@id": `${origin}/#business`, name: "Grimforge Haunt Props" },
      video: [
        {
          "@type": "VideoObject",
          name: "Crypt reaper: video clip",
          description: "A seven-foot reaper that lunges from its crypt.",
          thumbnailUrl: `${origin}/photos/poster-720.jpg`,
          contentUrl: `${origin}/media/${hex24(107)}.mp4`,
          uploadDate: "2026-03-01T10:05:00.000Z",
          duration: "PT42S",
          width: 1280,
          height: 720,
        },
      ],
    });
    // Without a story, year, photo or clip: the fixed words, and nothing it does not know.
    const bare = projectJsonLd(work.projects[2]!, "Grimforge Haunt Props", origin);
    expect(bare.description).toBe("Bare bones: a custom build by Grimforge Haunt Props for a haunted attraction.");
    expect(Object.keys(bare)).not.toEqual(expect.arrayContaining(["image"]));
    expect(bare).not.toHaveProperty("dateCreated");
    expect(bare).not.toHaveProperty("video");
  });

  it("link previews: the cover's 1080-px JPEG with its alt text, and the first clip as og:video", () => {
    expect(coverPreview(reaper.photos[0]!)).toEqual({ src: "/photos/reaper-1080.jpg", width: 1080, height: 810 });
    const meta = projectHead(reaper, shown, origin);
    const tagIn = (tags: typeof meta, key: string) =>
      (
        tags.find((m) => ("property" in m && m.property === key) || ("name" in m && m.name === key)) as
          { content?: string } | undefined
      )?.content;
    const tag = (key: string) => tagIn(meta, key);
    expect(meta).toContainEqual({ title: "Crypt reaper | Grimforge Haunt Props" });
    expect(tag("description")).toBe("A seven-foot reaper that lunges from its crypt.");
    expect(tag("og:image")).toBe(`${origin}/photos/reaper-1080.jpg`);
    expect(tag("og:image:width")).toBe("1080");
    expect(tag("og:image:height")).toBe("810");
    expect(tag("og:image:alt")).toBe(reaperCover.alt);
    expect(tag("og:url")).toBe(`${origin}/work/crypt-reaper`);
    expect(tag("og:video")).toBe(`${origin}/media/${hex24(107)}.mp4`);
    expect(tag("og:video:type")).toBe("video/mp4");
    expect([tag("og:video:width"), tag("og:video:height")]).toEqual(["1280", "720"]);
    expect(meta.filter((m) => "script:ld+json" in m)).toHaveLength(1);
    // No cover: the site's preview image; no clip: no og:video.
    const bare = projectHead(work.projects[2]!, shown, origin);
    expect(tagIn(bare, "og:image")).toBe(`${origin}/social.jpg`);
    expect(bare.some((m) => "property" in m && m.property === "og:video")).toBe(false);
  });
});
