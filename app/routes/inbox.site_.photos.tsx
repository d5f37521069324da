import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Link, redirect, useActionData, useLoaderData } from "@remix-run/react";
import { InboxShell, linkClass } from "~/components/inbox/InboxShell";
import { Notice } from "~/components/inbox/form/Notice";
import { CaptionsForm, PhotoForm, UploadForm, type FormReturn } from "~/components/inbox/PhotoForms";
import { AutoRefresh } from "~/components/inbox/AutoRefresh";
import { inboxCopy } from "~/wording/inbox";
import { photosEditorCopy } from "~/wording/photos-editor";
import { siteEditorCopy } from "~/wording/site-editor";
import { mediaType } from "~/http/body.server";
import { defaultBodyCap } from "~/http/body-cap";
import { formRefusal, readForm } from "~/http/form.server";
import { asOperator, type OperatorSession } from "~/owner/gate.server";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { shownToOwner } from "~/owner/shown";
import { photoPlaces, photoUploadBodyCap, type PhotoPlace } from "~/photos/limits";
import { photosPage } from "~/site-content/photos-page.server";
import { receiveUpload, storeReceived, type UploadProblem } from "~/photos/upload.server";
import { problemWords } from "~/photos/problem-words";
import type { DecodeCost } from "~/photos/limits";
import { PhotosBusy } from "~/photos/turns.server";
import { staleMessage } from "~/site-content/editor.server";
import { focusFrom, placePhoto, withCaptions, withPhotoAt } from "~/site-content/photo-edits";
import { ensureRenditions } from "~/site-content/photo-renditions.server";
import { draftContent } from "~/site-content/publish.server";
import { altProblem, validateSiteContent, type SiteContent } from "~/site-content/schema.server";
import type { PhotoStore } from "~/store/photos.types";
import type { SiteStore } from "~/store/site-versions.types";

export const meta: MetaFunction = () => [
  { title: `${photosEditorCopy.title} | ${siteEditorCopy.title} | ${inboxCopy.title}` },
  { name: "robots", content: "noindex, nofollow" },
];
export const headers = inboxHeaders;

const words = photosEditorCopy;

/** One photo at its limit and the form's few short fields, streamed through the multipart parser by the route. */
export const bodyCap = photoUploadBodyCap;

/**
 * The owner's Photos page: upload a photo into a place, and move, take off, describe, focus and caption the
 * draft's photos. Every change is a post that saves the draft (compare-and-set on its revision, like the Site page)
 * and asks for the encoded files its photos need; the public site changes only at Publish on the Site page. A refused
 * post shows the page again with what was typed and why, JavaScript on or off.
 */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, showPhotos);
}

const notices: Record<string, string> = {
  uploaded: words.done.uploaded,
  saved: words.done.saved,
  removed: words.done.removed,
};

async function showPhotos({ request }: LoaderFunctionArgs, { operator, store }: OperatorSession) {
  const { content, revision } = await draftContent(store);
  const page = await photosPage(store, content);
  const url = new URL(request.url);
  const done = url.searchParams.get("done") ?? "";
  // Without JavaScript the page reloads itself while photos encode only after a change (?done=) and while watching
  // (?watch): one opened to edit is never reloaded under the owner's typing.
  const watching = url.searchParams.has("done") || url.searchParams.has("watch");
  return data(
    shownToOwner({
      operator: operator.email,
      revision,
      captions: content.photos.captions,
      notice: notices[done] ?? null,
      watching,
      ...page,
    }),
    { headers: privateHeaders },
  );
}

export async function action(args: ActionFunctionArgs) {
  return asOperator(args, editPhotos);
}

const isPlace = (value: string): value is PhotoPlace => (photoPlaces as readonly string[]).includes(value);

function answer(returned: Partial<FormReturn>, status: number, headers?: Record<string, string>) {
  return data(
    shownToOwner<FormReturn>({
      form: null,
      values: {},
      errors: {},
      refusal: null,
      revision: null,
      formKey: crypto.randomUUID(),
      ...returned,
    }),
    { status, headers: headers ? { ...privateHeaders, ...headers } : privateHeaders },
  );
}

const done = (what: "uploaded" | "saved" | "removed") =>
  redirect(`/inbox/site/photos?done=${what}`, { status: 303, headers: privateHeaders });

/** After a saved draft: its photos' encoded files are asked for, and this instance's encoder starts on them. */
async function renditionsFor(store: PhotoStore & SiteStore, content: SiteContent, context: AppLoadContext) {
  await ensureRenditions(store, content);
  context.services.wakePhotoEncoder();
}

async function editPhotos({ request, context }: ActionFunctionArgs, session: OperatorSession) {
  if (mediaType(request) === "multipart/form-data") return upload(request, context, session);
  let form: FormData;
  try {
    form = await readForm(request, defaultBodyCap);
  } catch (error) {
    // Over the cap, not a form, or a form that cannot be read: the page again, with the reason.
    const refused = await formRefusal(error);
    if (refused) return answer({ refusal: refused.words }, refused.status);
    throw error;
  }
  const intent = String(form.get("intent") ?? "");
  const posted = String(form.get("revision") ?? "");
  // No revision, or not a number, is never the draft's: refused as stale (Number() would read "" as a fresh 0).
  const revision = /^\d{1,15}$/.test(posted) ? Number(posted) : -1;
  if (intent === "save" || intent === "remove") return savePhoto(form, intent, revision, context, session);
  if (intent === "captions") return saveCaptions(form, revision, context, session);
  return answer({ refusal: words.errors.unknownAction }, 400);
}

/** Seconds a refused upload is asked to wait (Retry-After): about one photo's turn. */
const busyRetrySeconds = 30;

async function upload(request: Request, context: AppLoadContext, { operator, store }: OperatorSession) {
  const received = await receiveUpload(request, bodyCap.maxBytes);
  const values = { alt: received.fields.alt, place: received.fields.place };
  const errors: Record<string, string> = {};
  const alt = altProblem(values.alt);
  if (alt) errors.alt = alt;
  if (!isPlace(values.place)) errors.place = words.errors.badPlace;
  const refuse = (problem: UploadProblem, status: number, cost?: DecodeCost) => {
    errors.photo = problemWords(problem, cost);
    const headers = problem === "busy" ? { "Retry-After": String(busyRetrySeconds) } : undefined;
    return answer({ form: "upload", values, errors }, status, headers);
  };
  if (!received.ok) return refuse(received.problem, received.status);
  const { file } = received;
  let id: string;
  try {
    // The photo is judged even when another field is refused, so every problem is said at once; kept only when none.
    const stored = await storeReceived(store, file, {
      alt: values.alt.trim(),
      uploadedBy: operator.email,
      keep: Object.keys(errors).length === 0,
    });
    if (!stored.ok) return refuse(stored.problem, stored.status, stored.cost);
    if (stored.id === null) return answer({ form: "upload", values, errors }, 400);
    id = stored.id;
  } catch (error) {
    if (error instanceof PhotosBusy) return refuse("busy", 503);
    throw error;
  } finally {
    await file.discard();
  }
  const place = values.place as PhotoPlace;
  if (place === "none") return done("uploaded");
  // The draft as it is now, with this photo in its place; once more if another save landed in between.
  for (let attempt = 0; attempt < 2; attempt++) {
    const { content, revision } = await draftContent(store);
    const checked = validateSiteContent(
      withPhotoAt(content, place, { upload: id, alt: values.alt, focus: { x: 0.5, y: 0.5 } }),
    );
    if (!checked.ok) return answer({ form: "upload", values, errors: { alt: Object.values(checked.errors)[0]! } }, 400);
    const saved = await store.saveSiteDraft(JSON.stringify(checked.content), revision, operator.email);
    if (saved.ok) {
      await renditionsFor(store, checked.content, context);
      return done("uploaded");
    }
    if (attempt === 1) return answer({ form: "upload", values, refusal: staleMessage(saved.draft) }, 409);
  }
  return done("uploaded");
}

async function savePhoto(
  form: FormData,
  intent: "save" | "remove",
  revision: number,
  context: AppLoadContext,
  { operator, store }: OperatorSession,
) {
  const field = (name: string) => String(form.get(name) ?? "");
  const values = { alt: field("alt"), focusX: field("focusX"), focusY: field("focusY"), to: field("to") };
  const from = field("from");
  const upload = field("upload");
  const formName = `photo-${from === "none" ? upload : from}`;
  if (!isPlace(from) || !/^[0-9a-f]{24}$/.test(upload))
    return answer({ form: formName, values, refusal: words.errors.unknownPhoto }, 400);
  const to: PhotoPlace = intent === "remove" ? "none" : isPlace(values.to) ? values.to : from;
  const errors: Record<string, string> = {};
  const x = focusFrom(values.focusX);
  const y = focusFrom(values.focusY);
  if (intent === "save") {
    const alt = altProblem(values.alt);
    if (alt && to !== "none") errors.alt = alt;
    if (x === null) errors.focusX = words.errors.focus;
    if (y === null) errors.focusY = words.errors.focus;
    if (!isPlace(values.to)) errors.to = words.errors.badPlace;
  }
  if (Object.keys(errors).length > 0) return answer({ form: formName, values, errors }, 400);
  if (!(await store.getUpload(upload)))
    return answer({ form: formName, values, refusal: words.errors.unknownPhoto }, 400);

  const { content } = await draftContent(store);
  const photo = { upload, alt: values.alt, focus: { x: x ?? 0.5, y: y ?? 0.5 } };
  const checked = validateSiteContent(placePhoto(content, from, to, photo));
  if (!checked.ok) return answer({ form: formName, values, errors: { alt: Object.values(checked.errors)[0]! } }, 400);
  const saved = await store.saveSiteDraft(JSON.stringify(checked.content), revision, operator.email);
  if (!saved.ok)
    return answer({ form: formName, values, revision: saved.draft.revision, refusal: staleMessage(saved.draft) }, 409);
  await renditionsFor(store, checked.content, context);
  return done(to === "none" ? "removed" : "saved");
}

async function saveCaptions(
  form: FormData,
  revision: number,
  context: AppLoadContext,
  { operator, store }: OperatorSession,
) {
  const captions = [0, 1, 2].map((index) => String(form.get(`caption${index}`) ?? "")) as [string, string, string];
  const values = { caption0: captions[0], caption1: captions[1], caption2: captions[2] };
  const { content } = await draftContent(store);
  const checked = validateSiteContent(withCaptions(content, captions));
  if (!checked.ok) {
    const errors: Record<string, string> = {};
    for (const [path, message] of Object.entries(checked.errors)) {
      const index = /^photos\.captions\.(\d)$/.exec(path)?.[1];
      if (index) errors[`caption${index}`] = message;
    }
    return answer({ form: "captions", values, errors }, 400);
  }
  const saved = await store.saveSiteDraft(JSON.stringify(checked.content), revision, operator.email);
  if (!saved.ok)
    return answer(
      { form: "captions", values, revision: saved.draft.revision, refusal: staleMessage(saved.draft) },
      409,
    );
  await renditionsFor(store, checked.content, context);
  return done("saved");
}

export default function InboxSitePhotos() {
  const page = useLoaderData<typeof loader>();
  const returned = useActionData<typeof action>() ?? null;
  const revision = returned?.revision ?? page.revision;
  const mine = (form: string) => (returned?.form === form ? returned : null);
  const pageRefusal = returned && (returned.form === null || !returned.form) ? returned.refusal : null;
  return (
    <InboxShell operator={page.operator}>
      {/* Not while a refusal is shown: asking again would take it, and what was typed, off the page. */}
      <AutoRefresh
        active={page.encoding && !returned}
        reloadTo={page.watching && !returned ? "/inbox/site/photos?watch" : null}
      />
      <div className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-2">
        <h1 className="font-display text-3xl font-bold text-bone-50">{words.title}</h1>
        <Link to="/inbox/site" className={linkClass}>
          {words.back}
        </Link>
      </div>
      <p className="mt-1 max-w-3xl text-bone-300">{words.intro}</p>
      <div className="mt-4">
        <Notice>{returned ? null : page.notice}</Notice>
        <Notice tone="error">{pageRefusal}</Notice>
      </div>
      <UploadForm returned={mine("upload")} />
      <section className="mt-6" aria-labelledby="photos-placed">
        <h2 id="photos-placed" className="font-display text-xl font-bold text-bone-50">
          {words.placed.heading}
        </h2>
        <ul className="mt-3 grid items-start gap-4 lg:grid-cols-2">
          {page.places.map((place) => (
            <li key={place.place} className="rounded-xl border border-night-600 bg-night-800/70 p-4">
              <h3 className="font-semibold text-bone-50">{place.label}</h3>
              {place.photo ? (
                <PhotoForm
                  key={`${revision}-${returned?.formKey ?? ""}`}
                  from={place.place}
                  fromLabel={place.label}
                  photo={place.photo}
                  revision={revision}
                  returned={mine(`photo-${place.place}`)}
                />
              ) : (
                <p className="mt-2 text-bone-300">{words.placed.empty}</p>
              )}
            </li>
          ))}
        </ul>
      </section>
      <CaptionsForm
        key={`captions-${revision}-${returned?.formKey ?? ""}`}
        captions={page.captions}
        revision={revision}
        returned={mine("captions")}
      />
      <section className="mt-6" aria-labelledby="photos-unplaced">
        <h2 id="photos-unplaced" className="font-display text-xl font-bold text-bone-50">
          {words.unplaced.heading}
        </h2>
        {page.unplaced.length === 0 ? (
          <p className="mt-2 text-bone-300">{words.unplaced.empty}</p>
        ) : (
          <ul className="mt-3 grid items-start gap-4 lg:grid-cols-2">
            {page.unplaced.map((upload) => (
              <li key={upload.id} className="rounded-xl border border-night-600 bg-night-800/70 p-4">
                <PhotoForm
                  key={`${revision}-${returned?.formKey ?? ""}`}
                  from="none"
                  fromLabel={upload.about}
                  photo={{ ...upload, focus: { x: 0.5, y: 0.5 }, status: null }}
                  revision={revision}
                  returned={mine(`photo-${upload.id}`)}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
    </InboxShell>
  );
}
