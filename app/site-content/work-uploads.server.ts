import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { workEditorCopy } from "~/wording/work-editor";
import type { BodyCap } from "~/http/body-cap";
import type { OperatorSession } from "~/owner/gate.server";
import { photoLimits, photoUploadBodyCap } from "~/photos/limits";
import { problemWords } from "~/photos/problem-words";
import { PhotosBusy } from "~/photos/turns.server";
import { receiveUpload, storeReceived, type UploadProblem } from "~/photos/upload.server";
import { limits } from "~/site-content/fields";
import { addProjectPhoto, addProjectVideo, findProject } from "~/site-content/project-edits";
import { draftContent } from "~/site-content/publish.server";
import { altProblem } from "~/site-content/schema.server";
import { projectErrors, saveWorkChange } from "~/site-content/work-draft.server";
import { inspectVideo, VideoRefused } from "~/video/inspect.server";
import { videoLimits } from "~/video/limits";
import { videoRefusalWords } from "~/video/refusal-words";

/**
 * A project's uploads: a photo (checked exactly as on the Photos page, in the process's photo turn) or a video clip
 * (its bytes judged by file-type and ffprobe before it is stored). Each body is streamed to a temporary file under
 * its own cap, never held in memory; the text fields come before the file, so a refusal keeps what was typed.
 */

/** A clip at its limit and the form's few short fields (docs/security.md, "Request bodies"). */
export const workUploadBodyCap: BodyCap = { maxBytes: videoLimits.maxBytes + 64 * 1024, readsOwnBody: true };

export type UploadOutcome =
  | { ok: true }
  | {
      ok: false;
      status: number;
      headers?: Record<string, string>;
      returned: { values: Record<string, string>; errors: Record<string, string>; refusal?: string | null };
    };

const words = workEditorCopy;
/** Seconds a refused photo is asked to wait (Retry-After): about one photo's turn. */
const busyRetrySeconds = 30;

export async function uploadPhotoToProject(
  request: Request,
  projectId: string,
  { operator, store }: OperatorSession,
): Promise<UploadOutcome> {
  const received = await receiveUpload(request, photoUploadBodyCap.maxBytes, {
    file: "photo",
    maxFileBytes: photoLimits.maxBytes,
    fields: ["alt", "revision"],
    photoTurn: true,
  });
  const values = { alt: received.fields.alt };
  const errors: Record<string, string> = {};
  const refuse = (problem: UploadProblem, status: number, cost?: Parameters<typeof problemWords>[1]) => {
    errors.photo = problemWords(problem, cost);
    const headers = problem === "busy" ? { "Retry-After": String(busyRetrySeconds) } : undefined;
    return { ok: false as const, status, headers, returned: { values, errors } };
  };
  if (!received.ok) return refuse(received.problem, received.status);
  const { file } = received;
  const alt = altProblem(values.alt);
  if (alt) errors.alt = alt;
  let id: string;
  try {
    const { content } = await draftContent(store);
    const project = findProject(content, projectId);
    if (!project) return { ok: false, status: 400, returned: { values, errors, refusal: words.errors.unknownProject } };
    if (project.photos.length >= limits.projectPhotosMax)
      return {
        ok: false,
        status: 400,
        returned: { values, errors: { photo: words.photos.full(limits.projectPhotosMax) } },
      };
    // Checked even when the alt text is refused, so both are said at once; stored only when nothing is.
    const stored = await storeReceived(store, file, {
      alt: values.alt.trim(),
      uploadedBy: operator.email,
      keep: Object.keys(errors).length === 0,
    });
    if (!stored.ok) return refuse(stored.problem, stored.status, stored.cost);
    if (stored.id === null) return { ok: false, status: 400, returned: { values, errors } };
    id = stored.id;
  } catch (error) {
    if (error instanceof PhotosBusy) return refuse("busy", 503);
    throw error;
  } finally {
    await file.discard();
  }
  const saved = await saveWorkChange(store, operator.email, {
    // An upload lands on the draft as it is now: nothing typed elsewhere is lost by it.
    revision: null,
    change: (content) =>
      addProjectPhoto(content, projectId, { upload: id, alt: values.alt, focus: { x: 0.5, y: 0.5 } }),
    activity: { action: "project photo added", detail: id },
  });
  if (saved.ok) return { ok: true };
  if (saved.kind === "stale") return { ok: false, status: 409, returned: { values, errors, refusal: saved.message } };
  const index = (await draftContent(store)).content.projects.findIndex((project) => project.id === projectId);
  const problems = projectErrors(saved.errors, index);
  return { ok: false, status: 400, returned: { values, errors: { photo: Object.values(problems)[0] ?? "" } } };
}

/** The first 24 hex digits of the file's SHA-256, read a piece at a time (a clip is up to 200 MB). */
async function fileId(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest("hex").slice(0, 24);
}

export async function uploadVideoToProject(
  request: Request,
  projectId: string,
  { operator, store }: OperatorSession,
): Promise<UploadOutcome> {
  const received = await receiveUpload(request, workUploadBodyCap.maxBytes, {
    file: "video",
    maxFileBytes: videoLimits.maxBytes,
    fields: ["revision"],
    photoTurn: false,
  });
  const values = {};
  const refuse = (text: string, status = 400): UploadOutcome => ({
    ok: false,
    status,
    returned: { values, errors: { video: text } },
  });
  if (!received.ok) {
    const problem = received.problem;
    if (problem === "tooLarge") return refuse(words.errors.videoTooLarge(videoLimits.maxBytes), 413);
    if (problem === "noFile") return refuse(words.errors.noVideo);
    if (problem === "empty") return refuse(words.errors.emptyVideo);
    return refuse(words.errors.notMultipart, received.status);
  }
  const { file } = received;
  let id: string;
  try {
    const { content } = await draftContent(store);
    const project = findProject(content, projectId);
    if (!project)
      return { ok: false, status: 400, returned: { values, errors: {}, refusal: words.errors.unknownProject } };
    if (project.videos.length >= limits.projectVideosMax) return refuse(words.videos.full(limits.projectVideosMax));
    let header;
    try {
      header = await inspectVideo(file.path);
    } catch (error) {
      if (error instanceof VideoRefused) return refuse(videoRefusalWords(error));
      throw error;
    }
    id = await fileId(file.path);
    await store.saveVideoUpload(
      {
        id,
        fileName: file.fileName,
        contentType: header.contentType,
        durationMs: header.durationMs,
        width: header.width,
        height: header.height,
        uploadedBy: operator.email,
      },
      file.path,
    );
  } finally {
    await file.discard();
  }
  const saved = await saveWorkChange(store, operator.email, {
    revision: null,
    change: (content) => addProjectVideo(content, projectId, id),
    activity: { action: "project clip added", detail: id },
  });
  if (saved.ok) return { ok: true };
  if (saved.kind === "stale")
    return { ok: false, status: 409, returned: { values, errors: {}, refusal: saved.message } };
  return refuse(Object.values(saved.errors)[0] ?? words.errors.notMultipart);
}
