import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Link, redirect, useActionData, useLoaderData } from "@remix-run/react";
import { AutoRefresh } from "~/components/inbox/AutoRefresh";
import { InboxShell, linkClass } from "~/components/inbox/InboxShell";
import { Notice } from "~/components/inbox/form/Notice";
import {
  ClipList,
  DeleteProjectForm,
  PhotoList,
  ProjectDetailsForm,
  ProjectUploadForm,
  type ProjectReturn,
} from "~/components/inbox/ProjectForms";
import { inboxCopy } from "~/wording/inbox";
import { workEditorCopy } from "~/wording/work-editor";
import { defaultBodyCap } from "~/http/body-cap";
import { formRefusal, readForm } from "~/http/form.server";
import { asOperator, type OperatorSession } from "~/owner/gate.server";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { shownToOwner } from "~/owner/shown";
import { limits } from "~/site-content/fields";
import { focusFrom } from "~/site-content/photo-edits";
import { projectPage } from "~/site-content/project-page.server";
import {
  editProjectPhoto,
  editProjectVideo,
  findProject,
  removeProject,
  updateProject,
  type PhotoEdit,
} from "~/site-content/project-edits";
import { draftContent } from "~/site-content/publish.server";
import { altProblem, type SiteContent } from "~/site-content/schema.server";
import { postedRevision, projectErrors, saveWorkChange } from "~/site-content/work-draft.server";
import { uploadPhotoToProject, uploadVideoToProject, workUploadBodyCap } from "~/site-content/work-uploads.server";

export const meta: MetaFunction<typeof loader> = ({ data: page }) => [
  {
    title: `${page && "title" in page ? page.title : workEditorCopy.title} | ${workEditorCopy.title} | ${inboxCopy.title}`,
  },
  { name: "robots", content: "noindex, nofollow" },
];
export const headers = inboxHeaders;

const words = workEditorCopy;

/** A clip at its limit and the form's few short fields; the uploads stream their own bodies under this cap. */
export const bodyCap = workUploadBodyCap;

/**
 * The owner's page of one project: its details, its photos (upload, alt text, focal point, order, cover) and its
 * clips (upload, progress, order, retry). Every change is a post that saves the draft like the Work page's; an upload
 * is judged by its bytes before anything is stored, and a refused post shows the page again with what was typed.
 */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, showProject);
}

const notices: Record<string, string> = {
  added: words.done.added,
  saved: words.done.saved,
  uploaded: words.done.uploaded,
  video: words.done.videoUploaded,
  retried: words.done.retried,
};

async function showProject({ request, params }: LoaderFunctionArgs, { operator, store }: OperatorSession) {
  const { content, revision } = await draftContent(store);
  const project = findProject(content, params.id ?? "");
  // A project deleted meanwhile (or never there) is a page that says so: never a redirect, which would also take the
  // place of a refused post's answer (the page's data is loaded again after every post).
  if (!project)
    return data(shownToOwner({ operator: operator.email, missing: true as const }), { headers: privateHeaders });
  const url = new URL(request.url);
  const done = url.searchParams.get("done") ?? "";
  const page = await projectPage(store, content, project);
  return data(
    shownToOwner({
      operator: operator.email,
      missing: false as const,
      revision,
      notice: notices[done] ?? null,
      watching: url.searchParams.has("done") || url.searchParams.has("watch"),
      ...page,
    }),
    { headers: privateHeaders },
  );
}

export async function action(args: ActionFunctionArgs) {
  return asOperator(args, editProject);
}

function answer(
  returned: Partial<ProjectReturn> & Pick<ProjectReturn, "form">,
  status: number,
  headers?: Record<string, string>,
) {
  return data(
    shownToOwner<ProjectReturn>({
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

const back = (id: string, done: string) =>
  redirect(`/inbox/work/${id}?done=${done}`, { status: 303, headers: privateHeaders });

async function editProject(args: ActionFunctionArgs, session: OperatorSession) {
  const { request, params, context } = args;
  const id = params.id ?? "";
  const upload = new URL(request.url).searchParams.get("upload");
  if (upload === "photo" || upload === "video") {
    const result =
      upload === "photo"
        ? await uploadPhotoToProject(request, id, session)
        : await uploadVideoToProject(request, id, session);
    if (!result.ok) return answer({ form: upload, ...result.returned }, result.status, result.headers);
    wakeEncoders(context);
    return back(id, upload === "photo" ? "uploaded" : "video");
  }
  let form: FormData;
  try {
    form = await readForm(request, defaultBodyCap);
  } catch (error) {
    const refused = await formRefusal(error);
    if (refused) return answer({ form: "page", refusal: refused.words }, refused.status);
    throw error;
  }
  const { content } = await draftContent(session.store);
  const project = findProject(content, id);
  if (!project) return answer({ form: "page", refusal: words.errors.unknownProject }, 400);
  const revision = postedRevision(form.get("revision"));
  const [intent = "", at = ""] = String(form.get("intent") ?? "").split(":");
  if (intent === "save") return saveDetails(form, id, revision, content, session);
  if (intent === "delete") {
    const saved = await saveWorkChange(session.store, session.operator.email, {
      revision,
      change: (draft) => removeProject(draft, id),
      activity: { action: "project deleted", detail: project.title },
    });
    if (saved.ok) return redirect("/inbox/work?done=removed", { status: 303, headers: privateHeaders });
    return answer(
      { form: "delete", refusal: saved.kind === "stale" ? saved.message : words.errors.unknownAction },
      409,
    );
  }
  const index = Number(at);
  if (intent.startsWith("photo-")) return editPhoto(form, intent.slice(6), index, id, revision, content, args, session);
  if (intent.startsWith("video-")) return editClip(form, intent.slice(6), index, id, revision, content, args, session);
  return answer({ form: "page", refusal: words.errors.unknownAction }, 400);
}

function wakeEncoders(context: AppLoadContext) {
  context.services.wakePhotoEncoder();
  context.services.wakeVideoEncoder?.();
}

async function saveDetails(
  form: FormData,
  id: string,
  revision: number,
  content: SiteContent,
  { operator, store }: OperatorSession,
) {
  const text = (name: string) => String(form.get(name) ?? "");
  const values = {
    title: text("title"),
    service: text("service"),
    year: text("year"),
    client: text("client"),
    story: text("story"),
    featured: form.get("featured") !== null,
  };
  const shown = { ...values, featured: values.featured ? "on" : "" };
  const saved = await saveWorkChange(store, operator.email, {
    revision,
    change: (draft) => updateProject(draft, id, values),
    activity: { action: "project saved", detail: values.title.trim() },
  });
  if (saved.ok) return back(id, "saved");
  if (saved.kind === "stale")
    return answer({ form: "details", values: shown, refusal: saved.message, revision: saved.revision }, 409);
  const errors = projectErrors(
    saved.errors,
    content.projects.findIndex((project) => project.id === id),
  );
  if (errors.project) return answer({ form: "details", values: shown, refusal: errors.project }, 400);
  return answer({ form: "details", values: shown, errors }, 400);
}

async function editPhoto(
  form: FormData,
  kind: string,
  index: number,
  id: string,
  revision: number,
  content: SiteContent,
  { context }: ActionFunctionArgs,
  { operator, store }: OperatorSession,
) {
  const formName = `photo-${index}`;
  const project = findProject(content, id)!;
  const photo = project.photos[index];
  // The photo is named by its place and its upload: a list changed in between is never edited at the wrong place.
  if (!photo || photo.upload !== String(form.get("upload") ?? ""))
    return answer({ form: formName, refusal: words.errors.unknownPhoto }, 400);
  const values = {
    alt: String(form.get("alt") ?? ""),
    focusX: String(form.get("focusX") ?? ""),
    focusY: String(form.get("focusY") ?? ""),
  };
  let edit: PhotoEdit;
  if (kind === "save") {
    const errors: Record<string, string> = {};
    const alt = altProblem(values.alt);
    const x = focusFrom(values.focusX);
    const y = focusFrom(values.focusY);
    if (alt) errors.alt = alt;
    if (x === null) errors.focusX = words.errors.focus;
    if (y === null) errors.focusY = words.errors.focus;
    if (Object.keys(errors).length > 0 || x === null || y === null)
      return answer({ form: formName, values, errors }, 400);
    edit = { kind: "save", alt: values.alt, focus: { x, y } };
  } else if (kind === "up" || kind === "down") edit = { kind: "move", direction: kind };
  else if (kind === "cover") edit = { kind: "cover" };
  else if (kind === "remove") edit = { kind: "remove" };
  else return answer({ form: formName, refusal: words.errors.unknownAction }, 400);
  const saved = await saveWorkChange(store, operator.email, {
    revision,
    change: (draft) => editProjectPhoto(draft, id, index, edit),
    activity: { action: `project photo ${index + 1}: ${edit.kind}`, detail: project.title },
  });
  if (saved.ok) {
    context.services.wakePhotoEncoder();
    return back(id, "saved");
  }
  if (saved.kind === "stale")
    return answer({ form: formName, values, refusal: saved.message, revision: saved.revision }, 409);
  return answer({ form: formName, values, refusal: Object.values(saved.errors)[0] ?? null }, 400);
}

async function editClip(
  form: FormData,
  kind: string,
  index: number,
  id: string,
  revision: number,
  content: SiteContent,
  { context }: ActionFunctionArgs,
  { operator, store }: OperatorSession,
) {
  const formName = `video-${index}`;
  const project = findProject(content, id)!;
  const clip = project.videos[index];
  if (!clip || clip.video !== String(form.get("video") ?? ""))
    return answer({ form: formName, refusal: words.errors.unknownPhoto }, 400);
  if (kind === "retry") {
    if (await store.retryVideo(clip.video)) {
      await store.logActivity({ actor: operator.email, action: "work: clip encoding retried", detail: project.title });
      context.services.wakeVideoEncoder?.();
    }
    return back(id, "retried");
  }
  const edit =
    kind === "up" || kind === "down"
      ? ({ kind: "move", direction: kind } as const)
      : kind === "remove"
        ? ({ kind: "remove" } as const)
        : null;
  if (!edit) return answer({ form: formName, refusal: words.errors.unknownAction }, 400);
  const saved = await saveWorkChange(store, operator.email, {
    revision,
    change: (draft) => editProjectVideo(draft, id, index, edit),
    activity: { action: `project clip ${index + 1}: ${edit.kind}`, detail: project.title },
  });
  if (saved.ok) return back(id, "saved");
  if (saved.kind === "stale") return answer({ form: formName, refusal: saved.message, revision: saved.revision }, 409);
  return answer({ form: formName, refusal: Object.values(saved.errors)[0] ?? null }, 400);
}

export default function InboxWorkProject() {
  const loaded = useLoaderData<typeof loader>();
  const returned = useActionData<typeof action>() ?? null;
  if (loaded.missing) return <MissingProject operator={loaded.operator} refusal={returned?.refusal ?? null} />;
  const page = loaded;
  const revision = returned?.revision ?? page.revision;
  const mine = (form: string) => (returned?.form === form ? returned : null);
  return (
    <InboxShell operator={page.operator}>
      <AutoRefresh
        active={page.encoding && !returned}
        reloadTo={page.watching && !returned ? `/inbox/work/${page.id}?watch` : null}
      />
      <div className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-2">
        <h1 className="font-display text-3xl font-bold text-bone-50">{words.project.heading(page.title)}</h1>
        <Link to="/inbox/work" className={linkClass}>
          {words.project.back}
        </Link>
      </div>
      <p className="mt-1 text-bone-300">{words.project.address(`/work/${page.slug}`)}</p>
      <div className="mt-4">
        <Notice>{returned ? null : page.notice}</Notice>
        <Notice tone="error">{returned?.form === "page" ? returned.refusal : null}</Notice>
      </div>
      <ProjectDetailsForm
        key={`details-${revision}-${returned?.formKey ?? ""}`}
        fields={page.fields}
        services={page.services}
        revision={revision}
        returned={mine("details")}
      />
      <section aria-labelledby="project-photos" className="mt-6">
        <h2 id="project-photos" className="font-display text-xl font-bold text-bone-50">
          {words.photos.heading}
        </h2>
        <p className="mt-1 text-sm text-bone-300">{words.photos.hint(limits.projectPhotosMax)}</p>
        <PhotoList photos={page.photos} revision={revision} returned={returned} />
        <ProjectUploadForm kind="photo" full={page.photos.length >= limits.projectPhotosMax} returned={mine("photo")} />
      </section>
      <section aria-labelledby="project-videos" className="mt-6">
        <h2 id="project-videos" className="font-display text-xl font-bold text-bone-50">
          {words.videos.heading}
        </h2>
        <ClipList clips={page.clips} revision={revision} returned={returned} />
        <ProjectUploadForm kind="video" full={page.clips.length >= limits.projectVideosMax} returned={mine("video")} />
      </section>
      <DeleteProjectForm revision={revision} returned={mine("delete")} />
    </InboxShell>
  );
}

/** The page of a project that is not in the draft: why, and the way back to the list. */
function MissingProject({ operator, refusal }: { operator: string; refusal: string | null }) {
  return (
    <InboxShell operator={operator}>
      <h1 className="font-display text-3xl font-bold text-bone-50">{words.title}</h1>
      <div className="mt-4">
        <Notice tone="error">{refusal}</Notice>
      </div>
      <p className="mt-2 text-bone-300">{words.errors.unknownProject}</p>
      <p className="mt-4">
        <Link to="/inbox/work" className={linkClass}>
          {words.project.back}
        </Link>
      </p>
    </InboxShell>
  );
}
