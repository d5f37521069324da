import { workEditorCopy } from "~/wording/work-editor";
import { statusOf, type PhotoStatus } from "~/site-content/photos-page.server";
import { placementKey, posterKey } from "~/site-content/photo-renditions.server";
import { projectFieldsOf, type ProjectFields } from "~/site-content/project-edits";
import type { Project, SiteContent } from "~/site-content/schema.server";
import type { PhotoStore } from "~/store/photos.types";
import type { VideoStore, VideoUpload } from "~/store/videos.types";

/**
 * What the owner's page of one project shows: its fields as the form starts, each photo with how far its encoding
 * got, each clip with its state in words ("Encoding video… 40 %", ready with its poster, failed with the reason and a
 * Retry), and whether anything is still encoding (the page then refreshes itself).
 */

export interface ShownProjectPhoto {
  upload: string;
  alt: string;
  focus: { x: number; y: number };
  status: PhotoStatus;
}

export interface ShownClip {
  video: string;
  about: string;
  state: "encoding" | "ready" | "failed" | "missing";
  line: string;
  poster: string | null;
}

const sizeOf = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

function clipOf(video: string, upload: VideoUpload | undefined, posterThumbnail: string | null): ShownClip {
  const words = workEditorCopy.videos;
  if (!upload) return { video, about: "", state: "missing", line: words.missing, poster: null };
  const about = words.about(upload.fileName, sizeOf(upload.byteSize));
  if (upload.state === "ready" && upload.clip) {
    const { durationMs, width, height } = upload.clip;
    return {
      video,
      about,
      state: "ready",
      line: words.ready(Math.round(durationMs / 1000), width, height),
      poster: posterThumbnail,
    };
  }
  if (upload.state === "failed")
    return { video, about, state: "failed", line: words.failed(upload.error ?? ""), poster: null };
  const line =
    upload.state === "receiving"
      ? words.receiving
      : upload.progress > 0
        ? words.encoding(upload.progress)
        : words.waiting;
  return { video, about, state: "encoding", line, poster: null };
}

export async function projectPage(store: PhotoStore & VideoStore, content: SiteContent, project: Project) {
  const photoKeys = project.photos.map((photo) => placementKey({ shape: "work", photo }));
  const uploads = new Map((await store.listVideos(project.videos.map((clip) => clip.video))).map((v) => [v.id, v]));
  const posters = [...uploads.values()].flatMap((upload) =>
    upload.clip?.posterUpload ? [posterKey(upload.clip.posterUpload)] : [],
  );
  const renditions = new Map((await store.renditions([...photoKeys, ...posters])).map((r) => [r.key, r]));
  const photos: ShownProjectPhoto[] = project.photos.map((photo, index) => ({
    upload: photo.upload,
    alt: photo.alt,
    focus: photo.focus,
    status: statusOf(renditions.get(photoKeys[index]!)),
  }));
  const clips = project.videos.map(({ video }) => {
    const upload = uploads.get(video);
    const poster = upload?.clip?.posterUpload ? renditions.get(posterKey(upload.clip.posterUpload)) : undefined;
    return clipOf(video, upload, poster ? statusOf(poster).thumbnail : null);
  });
  const fields: ProjectFields = projectFieldsOf(project);
  return {
    id: project.id,
    slug: project.slug,
    title: project.title,
    fields,
    services: content.services.map((service) => service.name),
    photos,
    clips,
    encoding:
      photos.some((photo) => photo.status.state === "encoding") || clips.some((clip) => clip.state === "encoding"),
  };
}

export type ProjectPage = Awaited<ReturnType<typeof projectPage>>;
