import type { Photo } from "~/wording/photo-types";
import { slugOf } from "~/site-content/fields";
import { placementKey, posterKey } from "~/site-content/photo-renditions.server";
import { readyEntry } from "~/site-content/public-photos.server";
import type { Project, SiteContent } from "~/site-content/schema.server";
import type { PhotoRendition, PhotoStore } from "~/store/photos.types";
import type { VideoStore, VideoUpload } from "~/store/videos.types";

/**
 * What the Work pages show of the content's projects, resolved on the server into plain view data: the words, the
 * photos whose renditions are encoded and the clips that are encoded, with their addresses. Nothing unencoded is
 * shown: a photo still encoding is left out (a card without a ready photo shows none), and so is a clip. The process
 * keeps the published content's work in its snapshot (server/site-content-poll.ts), so a photo or clip encoded after
 * the publish goes public by itself; a preview resolves the draft's.
 */

/** A service as the Work pages name it: its name and its address part (/work/{slug}). */
export interface WorkService {
  name: string;
  slug: string;
}

/** An encoded clip as the project page plays it. */
export interface WorkClip {
  /** The clip's file: /media/{name} (immutable). */
  src: string;
  width: number;
  height: number;
  durationMs: number;
  /** When it became ready (ISO 8601): the VideoObject's uploadDate. */
  uploadDate: string;
  /** Its poster frame once encoded (WebP for the player, JPEG for search engines), else null. */
  poster: { webp: string; jpeg: string; width: number; height: number } | null;
}

/** A project as the Work pages show it. */
export interface WorkProject {
  slug: string;
  title: string;
  service: WorkService | null;
  year: number | null;
  client: string;
  /** The story, one entry per paragraph (a blank line in the owner's text starts the next). */
  paragraphs: string[];
  featured: boolean;
  /** The encoded photos in the owner's order; the first is the cover. */
  photos: Photo[];
  clips: WorkClip[];
}

/** The work of one version of the content (published, or a preview's draft). */
export interface PublicWork {
  /** Featured first, then in the owner's order. */
  projects: WorkProject[];
  /** The services that have a project, in the services' order: the filter links. */
  services: WorkService[];
  /** A former address's slug to the project's current one (answered with a 301). */
  moved: Record<string, string>;
}

export const noWork: PublicWork = { projects: [], services: [], moved: {} };

/** The photo placements of a project, as photo-renditions.server.ts places them (the shape "work"). */
const workPlacements = (project: Project) => project.photos.map((photo) => ({ shape: "work" as const, photo }));

/** The source of `sources` at the smallest width from `width` up (else the widest): enough for the box, no more. */
function sourceFor(sources: readonly { width: number; src: string }[], width: number) {
  return sources.find((source) => source.width >= width) ?? sources.at(-1)!;
}

/** What the player shows before it plays: 720 px covers the player on a phone at 2x and the page's column at 1x. */
const posterWidth = 720;

function clipFrom(video: VideoUpload | undefined, byKey: Map<string, PhotoRendition>): WorkClip | null {
  const clip = video?.state === "ready" ? video.clip : null;
  if (!video || !clip || clip.width <= 0 || clip.height <= 0) return null;
  const poster = clip.posterUpload ? readyEntry(byKey.get(posterKey(clip.posterUpload))) : null;
  return {
    src: `/media/${clip.name}`,
    width: clip.width,
    height: clip.height,
    durationMs: clip.durationMs,
    uploadDate: (video.readyAt ?? video.uploadedAt).toISOString(),
    poster: poster
      ? {
          webp: sourceFor(poster.webp, posterWidth).src,
          jpeg: sourceFor(poster.jpeg, posterWidth).src,
          width: poster.width,
          height: poster.height,
        }
      : null,
  };
}

/** The work to show, given the content, the renditions and the videos it places (those not ready are left out). */
export function workFrom(
  content: SiteContent,
  renditions: readonly PhotoRendition[],
  videos: readonly VideoUpload[],
): PublicWork {
  if (content.projects.length === 0) return noWork;
  const byKey = new Map(renditions.map((rendition) => [rendition.key, rendition]));
  const videoById = new Map(videos.map((video) => [video.id, video]));
  const serviceOf = (name: string | null): WorkService | null => (name ? { name, slug: slugOf(name) } : null);
  const shown = content.projects.map((project): WorkProject => ({
    slug: project.slug,
    title: project.title,
    service: serviceOf(project.service),
    year: project.year,
    client: project.client,
    paragraphs: project.story
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.trim())
      .filter(Boolean),
    featured: project.featured,
    photos: workPlacements(project).flatMap((placed) => {
      const entry = readyEntry(byKey.get(placementKey(placed)));
      if (!entry) return [];
      const { social: _social, ...photo } = entry;
      return [{ ...photo, alt: placed.photo.alt }];
    }),
    clips: project.videos.flatMap(({ video }) => clipFrom(videoById.get(video), byKey) ?? []),
  }));
  const used = new Set(shown.flatMap((project) => (project.service ? [project.service.name] : [])));
  return {
    // A stable sort: the owner's order within the featured and within the rest.
    projects: [...shown].sort((a, b) => Number(b.featured) - Number(a.featured)),
    services: content.services.filter((service) => used.has(service.name)).map((service) => serviceOf(service.name)!),
    moved: Object.fromEntries(
      content.projects.flatMap((project) => project.formerSlugs.map((former) => [former, project.slug])),
    ),
  };
}

/** The content's work as the pages show it now: the videos it places, then the renditions of its photos and posters. */
export async function resolveWork(store: PhotoStore & VideoStore, content: SiteContent): Promise<PublicWork> {
  if (content.projects.length === 0) return noWork;
  const videoIds = [...new Set(content.projects.flatMap((project) => project.videos.map(({ video }) => video)))];
  const videos = videoIds.length > 0 ? await store.listVideos(videoIds) : [];
  const posters = videos.flatMap((video) =>
    video.state === "ready" && video.clip?.posterUpload ? [posterKey(video.clip.posterUpload)] : [],
  );
  const keys = [...content.projects.flatMap((project) => workPlacements(project).map(placementKey)), ...posters];
  return workFrom(content, keys.length > 0 ? await store.renditions(keys) : [], videos);
}

/** A card on /work: a project's cover, title, service and year, and its address. */
export interface WorkCard {
  href: string;
  title: string;
  service: string | null;
  year: number | null;
  featured: boolean;
  cover: Photo | null;
}

/** One of the filter links above the cards. */
export interface WorkFilter {
  label: string | null;
  href: string;
  current: boolean;
}

/** /work (service null) or /work/{service}: the cards and the filter links. */
export interface WorkListView {
  service: WorkService | null;
  cards: WorkCard[];
  /** All first (label null: the page's words name it), then each service that has a project. */
  filters: WorkFilter[];
}

export const projectPath = (slug: string) => `/work/${slug}`;

/** The list at /work (null) or /work/{serviceSlug}; null when there is nothing to show there (the site's 404). */
export function workList(work: PublicWork, serviceSlug: string | null): WorkListView | null {
  const service = serviceSlug === null ? null : work.services.find((candidate) => candidate.slug === serviceSlug);
  if (service === undefined || work.projects.length === 0) return null;
  const projects = service ? work.projects.filter((project) => project.service?.slug === service.slug) : work.projects;
  return {
    service,
    cards: projects.map((project) => ({
      href: projectPath(project.slug),
      title: project.title,
      service: project.service?.name ?? null,
      year: project.year,
      featured: project.featured,
      cover: project.photos[0] ?? null,
    })),
    filters: [
      { label: null, href: "/work", current: service === null },
      ...work.services.map((candidate) => ({
        label: candidate.name,
        href: `/work/${candidate.slug}`,
        current: candidate.slug === service?.slug,
      })),
    ],
  };
}

/** What /work/{slug} is: a service's list, a project, the former address of one (a 301 to `to`), or nothing (404). */
export type WorkAddress =
  | { kind: "service"; list: WorkListView }
  | { kind: "project"; project: WorkProject }
  | { kind: "moved"; to: string }
  | { kind: "missing" };

export function workAt(work: PublicWork, slug: string): WorkAddress {
  // The schema keeps a project's slugs apart from the services' and from each other: at most one of these matches.
  const project = work.projects.find((candidate) => candidate.slug === slug);
  if (project) return { kind: "project", project };
  const list = workList(work, slug);
  if (list) return { kind: "service", list };
  const moved = Object.hasOwn(work.moved, slug) ? work.moved[slug] : undefined;
  return moved ? { kind: "moved", to: projectPath(moved) } : { kind: "missing" };
}

/** Every address of the Work pages (the sitemap's): /work, each service's with a project, each project's. */
export function workPaths(work: PublicWork): string[] {
  if (work.projects.length === 0) return [];
  return [
    "/work",
    ...work.services.map((service) => `/work/${service.slug}`),
    ...work.projects.map((project) => projectPath(project.slug)),
  ];
}
