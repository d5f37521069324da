import type { MetaDescriptor } from "@remix-run/node";
import { pageMeta } from "~/wording/shared";
import { projectPage } from "~/wording/work";
import type { Photo } from "~/wording/photo-types";
import { pageHead } from "~/site-content/page-head.server";
import type { PublicSite } from "~/site-content/public-site";
import { projectPath, type WorkClip, type WorkProject } from "~/site-content/public-work.server";
import type { JsonLdData } from "~/site-content/structured-data.server";

/**
 * A project page's head: its title and description, its link previews (the cover's photo and its first clip) and its
 * schema.org JSON-LD (a CreativeWork with a VideoObject per clip), every URL absolute under PUBLIC_URL (`origin`).
 */

/** The link-preview image's width: a phone at 3x, and what the big previews show. */
const previewWidth = 1080;

/** A duration in ISO 8601 as schema.org reads it: PT42S, PT1M5S. */
export function isoDuration(durationMs: number): string {
  const seconds = Math.max(1, Math.round(durationMs / 1000));
  const minutes = Math.floor(seconds / 60);
  return `PT${minutes > 0 ? `${minutes}M` : ""}${seconds % 60 > 0 || minutes === 0 ? `${seconds % 60}S` : ""}`;
}

/** A description from the story: its first paragraph, cut at a word to about 160 characters for the meta tag. */
function shortened(text: string, max = 160): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max / 2)).replace(/[\s,;:.–-]+$/, "")}…`;
}

const firstParagraph = (project: WorkProject, businessName: string) =>
  project.paragraphs[0] ?? projectPage.description(project.title, businessName);

/** The cover's JPEG at the preview's width (or the widest below it), with its height at the cover's shape. */
export function coverPreview(cover: Photo): { src: string; width: number; height: number } {
  const source = [...cover.jpeg].reverse().find((candidate) => candidate.width <= previewWidth) ?? cover.jpeg[0]!;
  return { src: source.src, width: source.width, height: Math.round((source.width * cover.height) / cover.width) };
}

const clipName = (project: WorkProject, index: number) =>
  projectPage.clipName(project.title, index + 1, project.clips.length);

function videoObject(project: WorkProject, clip: WorkClip, index: number, origin: string, description: string) {
  const thumbnail = clip.poster?.jpeg ?? project.photos[0]?.jpeg.at(-1)?.src;
  return {
    "@type": "VideoObject",
    name: clipName(project, index),
    description,
    ...(thumbnail ? { thumbnailUrl: new URL(thumbnail, origin).href } : {}),
    contentUrl: new URL(clip.src, origin).href,
    uploadDate: clip.uploadDate,
    duration: isoDuration(clip.durationMs),
    width: clip.width,
    height: clip.height,
  };
}

export function projectJsonLd(project: WorkProject, businessName: string, origin: string): JsonLdData {
  const description = firstParagraph(project, businessName);
  return {
    "@context": "https://schema.org",
    "@type": "CreativeWork",
    name: project.title,
    description,
    url: new URL(projectPath(project.slug), origin).href,
    // Each photo's widest JPEG, the cover first: what search engines may show for the work.
    ...(project.photos.length > 0
      ? { image: project.photos.map((photo) => new URL(photo.jpeg.at(-1)!.src, origin).href) }
      : {}),
    ...(project.year !== null ? { dateCreated: String(project.year) } : {}),
    ...(project.service ? { genre: project.service.name } : {}),
    creator: { "@type": "LocalBusiness", "@id": new URL("/#business", origin).href, name: businessName },
    ...(project.clips.length > 0
      ? { video: project.clips.map((clip, index) => videoObject(project, clip, index, origin, description)) }
      : {}),
  };
}

/**
 * The project page's head tags: its title, the story's first words as its description, the cover as the preview
 * image (else the site's), the first clip as og:video, and the JSON-LD.
 */
export function projectHead(
  project: WorkProject,
  shown: { site: PublicSite; preview: boolean },
  origin: string,
): MetaDescriptor[] {
  const businessName = shown.site.business.name;
  const page = {
    title: projectPage.title(project.title, businessName),
    description: shortened(firstParagraph(project, businessName)),
  };
  const path = projectPath(project.slug);
  const jsonLd = projectJsonLd(project, businessName, origin);
  const cover = project.photos[0];
  const tags = cover
    ? [
        ...pageMeta(page, {
          url: new URL(path, origin).href,
          social: coverPreview(cover),
          businessName,
          noindex: shown.preview,
        }).map((tag) =>
          // The photo's own words describe the preview image better than the site's generic ones.
          "property" in tag && tag.property === "og:image:alt"
            ? { ...tag, content: cover.alt }
            : "name" in tag && tag.name === "twitter:image:alt"
              ? { ...tag, content: cover.alt }
              : tag,
        ),
        { "script:ld+json": jsonLd },
      ]
    : pageHead(page, path, shown, origin, jsonLd);
  const clip = project.clips[0];
  return clip
    ? [
        ...tags,
        { property: "og:video", content: new URL(clip.src, origin).href },
        { property: "og:video:type", content: "video/mp4" },
        { property: "og:video:width", content: String(clip.width) },
        { property: "og:video:height", content: String(clip.height) },
      ]
    : tags;
}
