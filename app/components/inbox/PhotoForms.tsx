import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { buttonClass, dangerButtonClass, inputClass, quietButtonClass } from "~/components/inbox/InboxShell";
import { useEmptiedAfterUpload } from "~/components/inbox/form/useEmptiedAfterUpload";
import { ErrorSummary, type Problem } from "~/components/inbox/form/ErrorSummary";
import { Field } from "~/components/inbox/form/Field";
import { TextField } from "~/components/inbox/form/TextField";
import { photosEditorCopy } from "~/wording/photos-editor";
import { limits } from "~/site-content/fields";
import { photoLimits, photoPlaces } from "~/photos/limits";

/**
 * The Photos page's forms: the upload, one per photo (alt text, focal point, place; Save and Remove), the captions.
 * A refused post comes back as `FormReturn` for the form it came from: its values as typed, a message per field tied
 * to it with aria-describedby, and the reasons in a role="alert" box. The server judges (noValidate), JS on or off.
 */

const words = photosEditorCopy;

export interface FormReturn {
  /** Which form the post came from: "upload", "captions", "photo-<place>" or "photo-<upload id>"; null: the page. */
  form: string | null;
  values: Record<string, string>;
  errors: Record<string, string>;
  refusal: string | null;
  /** The draft's revision when a post was refused as stale, to save again from. */
  revision: number | null;
  formKey: string;
}

/** A refused post's messages, each linking to its field ("alt" in the upload form is the field `upload-alt`). */
function problemsOf(returned: FormReturn | null, fieldOf: (name: string) => string): Problem[] {
  return Object.entries(returned?.errors ?? {}).map(([name, text]) => ({ key: name, text, field: fieldOf(name) }));
}

/** The reasons a post was refused, focused when it appears so that a screen reader reads them. */
function Refusal({
  returned,
  heading,
  fieldOf,
}: {
  returned: FormReturn | null;
  heading?: string;
  fieldOf: (name: string) => string;
}) {
  const problems = problemsOf(returned, fieldOf);
  return (
    <ErrorSummary
      className="mt-3"
      lines={[returned?.refusal, problems.length > 0 ? heading : null]}
      problems={problems}
      focusKey={returned?.formKey}
    />
  );
}

function PlaceChoice({ id, value, error, label }: { id: string; value: string; error?: string; label: string }) {
  return (
    <Field id={id} label={label} error={error}>
      {(control) => (
        <select {...control} name={id.endsWith("-place") ? "place" : "to"} defaultValue={value} className={inputClass}>
          {photoPlaces.map((place) => (
            <option key={place} value={place}>
              {words.places[place]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-6 rounded-xl border border-night-600 bg-night-800/70 p-4 sm:p-5">
      <h2 id={id} className="font-display text-xl font-bold text-bone-50">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function UploadForm({ returned }: { returned: FormReturn | null }) {
  const form = useEmptiedAfterUpload(returned !== null);
  const values = returned?.values ?? {};
  const errors = returned?.errors ?? {};
  const hint = words.upload.hint(photoLimits.maxBytes, photoLimits.maxPixels / 1_000_000);
  return (
    <Section id="photos-upload" title={words.upload.heading}>
      <Form
        ref={form}
        method="post"
        encType="multipart/form-data"
        noValidate
        aria-labelledby="photos-upload"
        key={returned?.formKey ?? "upload"}
      >
        <Refusal returned={returned} heading={words.errors.summary} fieldOf={(name) => `upload-${name}`} />
        {/* The text fields come before the file: a refused upload (even one past the size cap) keeps them. */}
        <div className="mt-3 grid gap-4 md:grid-cols-[3fr_2fr]">
          <TextField
            id="upload-alt"
            name="alt"
            label={words.upload.alt}
            hint={words.upload.altHint}
            value={values.alt ?? ""}
            error={errors.alt}
            maxLength={limits.alt}
            required
          />
          <PlaceChoice
            id="upload-place"
            label={words.upload.place}
            value={values.place ?? "slide-1"}
            error={errors.place}
          />
        </div>
        <Field
          id="upload-photo"
          label={words.upload.photo}
          hint={hint}
          error={errors.photo}
          className="mt-4"
          name="photo"
          type="file"
          accept={photoLimits.types.join(",")}
          aria-required="true"
          inputClassName="mt-2 block w-full text-bone-100 file:mr-3 file:rounded-md file:border file:border-night-600 file:bg-night-800 file:px-4 file:py-2 file:font-medium file:text-bone-100"
        />
        <button type="submit" className={`${buttonClass} mt-4`}>
          {words.upload.submit}
        </button>
      </Form>
    </Section>
  );
}

export interface PhotoFormProps {
  /** The place the photo is in, or "none" for an upload no place shows. */
  from: string;
  /** The place's name, or the upload's file line for one not shown. */
  fromLabel: string;
  photo: {
    id: string;
    alt: string;
    about: string;
    size: string;
    focus: { x: number; y: number };
    status: { state: string; line: string; thumbnail: string | null } | null;
  };
  revision: number;
  returned: FormReturn | null;
}

const percent = (value: number) => String(Math.round(value * 1000) / 10);

export function PhotoForm({ from, fromLabel, photo, revision, returned }: PhotoFormProps) {
  const key = from === "none" ? photo.id : from;
  const id = (name: string) => `photo-${key}-${name}`;
  const values = returned?.values ?? {};
  const errors = returned?.errors ?? {};
  const status = photo.status;
  return (
    <div className="mt-2">
      <div className="flex flex-wrap items-start gap-4">
        {status?.thumbnail ? (
          <img src={status.thumbnail} alt={photo.alt} width={160} height={90} className="h-auto w-40 rounded-md" />
        ) : null}
        <div className="min-w-0 flex-1 text-sm">
          {status ? (
            <p className={status.state === "failed" ? "font-semibold text-red-300" : "text-bone-100"}>{status.line}</p>
          ) : null}
          <p className="text-bone-300">{photo.about}</p>
          {photo.size ? <p className="text-bone-300">{photo.size}</p> : null}
        </div>
      </div>
      <Form method="post" noValidate key={returned?.formKey ?? "photo"}>
        <input type="hidden" name="revision" value={revision} />
        <input type="hidden" name="from" value={from} />
        <input type="hidden" name="upload" value={photo.id} />
        <Refusal returned={returned} fieldOf={id} />
        <div className="mt-3 space-y-3">
          <TextField
            id={id("alt")}
            name="alt"
            label={words.edit.alt}
            value={values.alt ?? photo.alt}
            error={errors.alt}
            maxLength={limits.alt}
            required
          />
          <fieldset aria-describedby={`${id("focus")}-hint`}>
            <legend className="sr-only">{`${words.edit.focusX}, ${words.edit.focusY}`}</legend>
            <p id={`${id("focus")}-hint`} className="text-sm text-bone-300">
              {words.edit.focusHint}
            </p>
            <div className="mt-1 grid grid-cols-2 gap-3">
              {(
                [
                  ["focusX", words.edit.focusX, photo.focus.x],
                  ["focusY", words.edit.focusY, photo.focus.y],
                ] as const
              ).map(([name, label, at]) => (
                <TextField
                  key={name}
                  id={id(name)}
                  name={name}
                  label={label}
                  value={values[name] ?? percent(at)}
                  error={errors[name]}
                  inputMode="decimal"
                  maxLength={6}
                />
              ))}
            </div>
          </fieldset>
          <PlaceChoice id={id("to")} label={words.edit.moveTo} value={values.to ?? from} error={errors.to} />
        </div>
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="submit" name="intent" value="save" className={quietButtonClass}>
            <span className="sr-only">{words.edit.prefix(fromLabel)}</span>
            {words.edit.save}
          </button>
          {from === "none" ? null : (
            <button type="submit" name="intent" value="remove" className={dangerButtonClass}>
              <span className="sr-only">{words.edit.prefix(fromLabel)}</span>
              {words.edit.remove}
            </button>
          )}
        </div>
      </Form>
    </div>
  );
}

export function CaptionsForm({
  captions,
  revision,
  returned,
}: {
  captions: readonly string[];
  revision: number;
  returned: FormReturn | null;
}) {
  const values = returned?.values ?? {};
  const errors = returned?.errors ?? {};
  return (
    <Section id="photos-captions" title={words.captions.heading}>
      <p className="mt-1 text-sm text-bone-300">{words.captions.hint}</p>
      <Form method="post" noValidate key={returned?.formKey ?? "captions"}>
        <input type="hidden" name="revision" value={revision} />
        <input type="hidden" name="intent" value="captions" />
        <Refusal returned={returned} fieldOf={(name) => name.replace(/^caption(\d)$/, "caption-$1")} />
        <div className="mt-3 space-y-3">
          {[0, 1, 2].map((index) => (
            <TextField
              key={index}
              id={`caption-${index}`}
              name={`caption${index}`}
              label={words.captions.label(index + 1)}
              value={values[`caption${index}`] ?? captions[index] ?? ""}
              error={errors[`caption${index}`]}
              maxLength={limits.caption}
              required
            />
          ))}
        </div>
        <button type="submit" className={`${buttonClass} mt-4`}>
          {words.captions.save}
        </button>
      </Form>
    </Section>
  );
}
