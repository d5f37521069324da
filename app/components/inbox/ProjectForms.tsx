import { Form } from "@remix-run/react";
import { buttonClass, dangerButtonClass, quietButtonClass } from "~/components/inbox/InboxShell";
import { useEmptiedAfterUpload } from "~/components/inbox/form/useEmptiedAfterUpload";
import { ErrorSummary } from "~/components/inbox/form/ErrorSummary";
import { Field, fieldInputClass } from "~/components/inbox/form/Field";
import { TextField } from "~/components/inbox/form/TextField";
import { photosEditorCopy } from "~/wording/photos-editor";
import { workEditorCopy } from "~/wording/work-editor";
import { limits } from "~/site-content/fields";
import { photoLimits } from "~/photos/limits";
import { videoLimits } from "~/video/limits";

/**
 * The forms of a project's page in the owner area: its details, one form per photo and per clip, the two uploads and
 * Delete. A refused post comes back as `ProjectReturn` for the form it came from, with what was typed and a message
 * per field (aria-describedby), JavaScript on or off; the server judges (noValidate).
 */

const words = workEditorCopy;

export interface ProjectReturn {
  /** "details", "photo", "video" (the uploads), "photo-N", "video-N", "delete", or "page". */
  form: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  refusal: string | null;
  revision: number | null;
  formKey: string;
}

function Refusal({ returned, prefix }: { returned: ProjectReturn | null; prefix: string }) {
  const problems = Object.entries(returned?.errors ?? {}).map(([name, text]) => ({
    key: name,
    text,
    field: `${prefix}-${name}`,
  }));
  return (
    <ErrorSummary
      className="mt-3"
      lines={[returned?.refusal, problems.length > 0 ? words.errors.summary : null]}
      problems={problems}
      focusKey={returned?.formKey}
    />
  );
}

const panelClass = "mt-6 rounded-xl border border-night-600 bg-night-800/70 p-4 sm:p-5";

export function ProjectDetailsForm({
  fields,
  services,
  revision,
  returned,
}: {
  fields: { title: string; service: string; year: string; client: string; story: string; featured: boolean };
  services: string[];
  revision: number;
  returned: ProjectReturn | null;
}) {
  const values = returned?.values;
  const errors = returned?.errors ?? {};
  const value = (name: "title" | "service" | "year" | "client" | "story") => values?.[name] ?? fields[name];
  const service = value("service");
  const choices = service && !services.includes(service) ? [...services, service] : services;
  return (
    <section aria-labelledby="project-details" className={panelClass}>
      <h2 id="project-details" className="font-display text-xl font-bold text-bone-50">
        {words.project.details}
      </h2>
      <Form method="post" noValidate key={returned?.formKey ?? "details"}>
        <input type="hidden" name="revision" value={revision} />
        <Refusal returned={returned} prefix="project" />
        <div className="mt-3 grid gap-4 md:grid-cols-2">
          <TextField
            id="project-title"
            name="title"
            label={words.project.title}
            value={value("title")}
            error={errors.title}
            maxLength={limits.projectTitle}
            required
          />
          <Field id="project-service" label={words.project.service} error={errors.service}>
            {(control) => (
              <select
                {...control}
                name="service"
                defaultValue={service}
                className={fieldInputClass(Boolean(errors.service))}
              >
                <option value="">{words.project.noService}</option>
                {choices.map((name) => (
                  <option key={name} value={name}>
                    {services.includes(name) ? name : words.project.removedService(name)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <TextField
            id="project-year"
            name="year"
            label={words.project.year}
            hint={words.project.yearHint}
            value={value("year")}
            error={errors.year}
            inputMode="numeric"
            maxLength={4}
          />
          <TextField
            id="project-client"
            name="client"
            label={words.project.client}
            hint={words.project.clientHint}
            value={value("client")}
            error={errors.client}
            maxLength={limits.projectClient}
          />
        </div>
        <TextField
          id="project-story"
          name="story"
          label={words.project.story}
          hint={words.project.storyHint}
          value={value("story")}
          error={errors.story}
          rows={8}
          maxLength={limits.projectStory}
          className="mt-4"
        />
        <div className="mt-4 flex items-center gap-2">
          <input
            id="project-featured"
            type="checkbox"
            name="featured"
            defaultChecked={values ? values.featured === "on" : fields.featured}
            className="h-5 w-5 accent-ember-500"
          />
          <label htmlFor="project-featured" className="font-medium text-bone-100">
            {words.project.featured}
          </label>
        </div>
        <button type="submit" name="intent" value="save" className={`${buttonClass} mt-4`}>
          {words.project.save}
        </button>
      </Form>
    </section>
  );
}

const percent = (value: number) => String(Math.round(value * 1000) / 10);

export function PhotoList({
  photos,
  revision,
  returned,
}: {
  photos: {
    upload: string;
    alt: string;
    focus: { x: number; y: number };
    status: { state: string; line: string; thumbnail: string | null };
  }[];
  revision: number;
  returned: ProjectReturn | null;
}) {
  if (photos.length === 0) return <p className="mt-2 text-bone-300">{words.photos.empty}</p>;
  return (
    <ol className="mt-3 grid items-start gap-4 lg:grid-cols-2">
      {photos.map((photo, index) => {
        const mine = returned?.form === `photo-${index}` ? returned : null;
        const id = (name: string) => `photo-${index}-${name}`;
        const values = mine?.values ?? {};
        const errors = mine?.errors ?? {};
        return (
          <li key={`${photo.upload}-${index}`} className="rounded-xl border border-night-600 bg-night-800/70 p-4">
            <div className="flex flex-wrap items-start gap-4">
              {photo.status.thumbnail ? (
                <img
                  src={photo.status.thumbnail}
                  alt={photo.alt}
                  width={160}
                  height={120}
                  className="h-auto w-40 rounded-md"
                />
              ) : null}
              <div className="min-w-0 flex-1 text-sm">
                <p className="font-semibold text-bone-50">
                  {words.photos.prefix(index + 1).replace(/: $/, "")}
                  {index === 0 ? ` (${words.photos.cover})` : ""}
                </p>
                <p className={photo.status.state === "failed" ? "font-semibold text-red-300" : "text-bone-100"}>
                  {photo.status.line}
                </p>
              </div>
            </div>
            <Form method="post" noValidate key={mine?.formKey ?? `photo-${index}`}>
              <input type="hidden" name="revision" value={revision} />
              <input type="hidden" name="upload" value={photo.upload} />
              <Refusal returned={mine} prefix={`photo-${index}`} />
              <div className="mt-3 space-y-3">
                <TextField
                  id={id("alt")}
                  name="alt"
                  label={words.photos.alt}
                  value={values.alt ?? photo.alt}
                  error={errors.alt}
                  maxLength={limits.alt}
                  required
                />
                <div className="grid grid-cols-2 gap-3">
                  <TextField
                    id={id("focusX")}
                    name="focusX"
                    label={photosEditorCopy.edit.focusX}
                    value={values.focusX ?? percent(photo.focus.x)}
                    error={errors.focusX}
                    inputMode="decimal"
                    maxLength={6}
                  />
                  <TextField
                    id={id("focusY")}
                    name="focusY"
                    label={photosEditorCopy.edit.focusY}
                    value={values.focusY ?? percent(photo.focus.y)}
                    error={errors.focusY}
                    inputMode="decimal"
                    maxLength={6}
                  />
                </div>
              </div>
              <div className="mt-3 flex flex-wrap gap-2">
                {(
                  [
                    ["save", words.photos.save, true],
                    ["cover", words.photos.makeCover, index > 0],
                    ["up", words.photos.earlier, index > 0],
                    ["down", words.photos.later, index < photos.length - 1],
                  ] as [string, string, boolean][]
                )
                  .filter(([, , shown]) => shown)
                  .map(([intent, label]) => (
                    <button
                      key={intent}
                      type="submit"
                      name="intent"
                      value={`photo-${intent}:${index}`}
                      className={quietButtonClass}
                    >
                      <span className="sr-only">{words.photos.prefix(index + 1)}</span>
                      {label}
                    </button>
                  ))}
                <button type="submit" name="intent" value={`photo-remove:${index}`} className={dangerButtonClass}>
                  <span className="sr-only">{words.photos.prefix(index + 1)}</span>
                  {words.photos.remove}
                </button>
              </div>
            </Form>
          </li>
        );
      })}
    </ol>
  );
}

export function ClipList({
  clips,
  revision,
  returned,
}: {
  clips: { video: string; about: string; state: string; line: string; poster: string | null }[];
  revision: number;
  returned: ProjectReturn | null;
}) {
  if (clips.length === 0) return <p className="mt-2 text-bone-300">{words.videos.empty}</p>;
  return (
    <ol className="mt-3 grid items-start gap-4 lg:grid-cols-2">
      {clips.map((clip, index) => {
        const mine = returned?.form === `video-${index}` ? returned : null;
        return (
          <li key={`${clip.video}-${index}`} className="rounded-xl border border-night-600 bg-night-800/70 p-4">
            <div className="flex flex-wrap items-start gap-4">
              {clip.poster ? (
                <img src={clip.poster} alt="" width={160} height={90} className="h-auto w-40 rounded-md" />
              ) : null}
              <div className="min-w-0 flex-1 text-sm">
                <p className="font-semibold text-bone-50">{words.videos.prefix(index + 1).replace(/: $/, "")}</p>
                <p
                  className={
                    clip.state === "failed" || clip.state === "missing" ? "font-semibold text-red-300" : "text-bone-100"
                  }
                  data-clip-state={clip.state}
                >
                  {clip.line}
                </p>
                {clip.about ? <p className="text-bone-300">{clip.about}</p> : null}
              </div>
            </div>
            <Form method="post" noValidate key={mine?.formKey ?? `video-${index}`}>
              <input type="hidden" name="revision" value={revision} />
              <input type="hidden" name="video" value={clip.video} />
              <Refusal returned={mine} prefix={`video-${index}`} />
              <div className="mt-3 flex flex-wrap gap-2">
                {(
                  [
                    ["retry", words.videos.retry, clip.state === "failed"],
                    ["up", words.videos.earlier, index > 0],
                    ["down", words.videos.later, index < clips.length - 1],
                  ] as [string, string, boolean][]
                )
                  .filter(([, , shown]) => shown)
                  .map(([intent, label]) => (
                    <button
                      key={intent}
                      type="submit"
                      name="intent"
                      value={`video-${intent}:${index}`}
                      className={quietButtonClass}
                    >
                      <span className="sr-only">{words.videos.prefix(index + 1)}</span>
                      {label}
                    </button>
                  ))}
                <button type="submit" name="intent" value={`video-remove:${index}`} className={dangerButtonClass}>
                  <span className="sr-only">{words.videos.prefix(index + 1)}</span>
                  {words.videos.remove}
                </button>
              </div>
            </Form>
          </li>
        );
      })}
    </ol>
  );
}

const fileInputClass =
  "mt-2 block w-full text-bone-100 file:mr-3 file:rounded-md file:border file:border-night-600 file:bg-night-800 file:px-4 file:py-2 file:font-medium file:text-bone-100";

/** The photo's or the clip's upload: posted to this page with `?upload=`, its body read under that upload's own cap. */
export function ProjectUploadForm({
  kind,
  full,
  returned,
}: {
  kind: "photo" | "video";
  full: boolean;
  returned: ProjectReturn | null;
}) {
  const form = useEmptiedAfterUpload(returned !== null);
  const values = returned?.values ?? {};
  const errors = returned?.errors ?? {};
  const max = kind === "photo" ? limits.projectPhotosMax : limits.projectVideosMax;
  if (full)
    return <p className="mt-3 text-bone-300">{kind === "photo" ? words.photos.full(max) : words.videos.full(max)}</p>;
  const hint =
    kind === "photo"
      ? photosEditorCopy.upload.hint(photoLimits.maxBytes, photoLimits.maxPixels / 1_000_000)
      : words.videos.hint(max, videoLimits.maxBytes, videoLimits.maxDurationMs / 1000);
  return (
    <div className={panelClass}>
      <Form
        ref={form}
        method="post"
        action={`?upload=${kind}`}
        encType="multipart/form-data"
        noValidate
        aria-label={kind === "photo" ? words.photos.uploadForm : words.videos.uploadForm}
        key={returned?.formKey ?? kind}
      >
        <Refusal returned={returned} prefix={`upload-${kind}`} />
        {/* The text fields come before the file: a refused upload (even one past the size cap) keeps them. */}
        {kind === "photo" ? (
          <TextField
            id="upload-photo-alt"
            name="alt"
            label={words.photos.alt}
            hint={words.photos.altHint}
            value={values.alt ?? ""}
            error={errors.alt}
            maxLength={limits.alt}
            required
            className="mt-3"
          />
        ) : null}
        <Field
          id={`upload-${kind}-${kind}`}
          label={kind === "photo" ? words.photos.photo : words.videos.video}
          hint={hint}
          error={errors[kind]}
          className="mt-4"
          name={kind}
          type="file"
          accept={
            kind === "photo" ? photoLimits.types.join(",") : "video/mp4,video/quicktime,video/webm,.mp4,.mov,.webm"
          }
          aria-required="true"
          inputClassName={fileInputClass}
        />
        <button type="submit" className={`${buttonClass} mt-4`}>
          {kind === "photo" ? words.photos.upload : words.videos.upload}
        </button>
      </Form>
    </div>
  );
}

export function DeleteProjectForm({ revision, returned }: { revision: number; returned: ProjectReturn | null }) {
  return (
    <section aria-labelledby="project-delete" className={panelClass}>
      <h2 id="project-delete" className="font-display text-xl font-bold text-bone-50">
        {words.project.remove}
      </h2>
      <p className="mt-1 text-sm text-bone-300">{words.project.removeHint}</p>
      <Form method="post" noValidate key={returned?.formKey ?? "delete"}>
        <input type="hidden" name="revision" value={revision} />
        <Refusal returned={returned} prefix="delete" />
        <button type="submit" name="intent" value="delete" className={`${dangerButtonClass} mt-3`}>
          {words.project.remove}
        </button>
      </Form>
    </section>
  );
}
