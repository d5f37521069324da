import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "@remix-run/react";
import { buttonClass, InboxShell, linkClass, quietButtonClass } from "~/components/inbox/InboxShell";
import { ErrorSummary } from "~/components/inbox/form/ErrorSummary";
import { Field, fieldInputClass } from "~/components/inbox/form/Field";
import { Notice } from "~/components/inbox/form/Notice";
import { TextField } from "~/components/inbox/form/TextField";
import { inboxCopy } from "~/wording/inbox";
import { workEditorCopy } from "~/wording/work-editor";
import { formRefusal, readForm } from "~/http/form.server";
import { defaultBodyCap } from "~/http/body-cap";
import { asOperator, type OperatorSession } from "~/owner/gate.server";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { shownToOwner } from "~/owner/shown";
import { limits } from "~/site-content/fields";
import { addProject, findProject, moveProject, newProjectId, setFeatured } from "~/site-content/project-edits";
import { draftContent } from "~/site-content/publish.server";
import type { SiteContent } from "~/site-content/schema.server";
import { postedRevision, projectErrors, saveWorkChange } from "~/site-content/work-draft.server";

export const meta: MetaFunction = () => [
  { title: `${workEditorCopy.title} | ${inboxCopy.title}` },
  { name: "robots", content: "noindex, nofollow" },
];
export const headers = inboxHeaders;

const words = workEditorCopy;

/**
 * The owner's Work page: the draft's projects in their order (move up / down, featured on / off, a link to edit each)
 * and "Add a project". Every change is a post that saves the draft (compare-and-set on its revision); the public Work
 * pages change at Publish on the Site page. Plain forms: the same with JavaScript on and off.
 */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, showWork);
}

const notices: Record<string, string> = {
  added: words.done.added,
  saved: words.done.saved,
  removed: words.done.removed,
};

async function showWork({ request }: LoaderFunctionArgs, { operator, store }: OperatorSession) {
  const { content, revision } = await draftContent(store);
  const done = new URL(request.url).searchParams.get("done") ?? "";
  return data(
    shownToOwner({
      operator: operator.email,
      revision,
      notice: notices[done] ?? null,
      services: content.services.map((service) => service.name),
      projects: content.projects.map((project) => ({
        id: project.id,
        title: project.title,
        service: project.service,
        year: project.year,
        featured: project.featured,
        photos: project.photos.length,
        videos: project.videos.length,
      })),
    }),
    { headers: privateHeaders },
  );
}

interface Returned {
  form: "add" | "list";
  values: Record<string, string>;
  errors: Record<string, string>;
  refusal: string | null;
  revision: number | null;
  formKey: string;
}

function answer(returned: Partial<Returned> & Pick<Returned, "form">, status: number) {
  return data(
    shownToOwner<Returned>({
      values: {},
      errors: {},
      refusal: null,
      revision: null,
      formKey: crypto.randomUUID(),
      ...returned,
    }),
    { status, headers: privateHeaders },
  );
}

export async function action(args: ActionFunctionArgs) {
  return asOperator(args, editWork);
}

async function editWork({ request }: ActionFunctionArgs, { operator, store }: OperatorSession) {
  let form: FormData;
  try {
    form = await readForm(request, defaultBodyCap);
  } catch (error) {
    const refused = await formRefusal(error);
    if (refused) return answer({ form: "list", refusal: refused.words }, refused.status);
    throw error;
  }
  const revision = postedRevision(form.get("revision"));
  const [intent = "", id = ""] = String(form.get("intent") ?? "").split(":");
  if (intent === "add") {
    const values = { title: String(form.get("title") ?? ""), service: String(form.get("service") ?? "") };
    const projectId = newProjectId();
    const saved = await saveWorkChange(store, operator.email, {
      revision,
      change: (content) => addProject(content, projectId, values),
      activity: { action: "project added", detail: values.title.trim() },
    });
    if (saved.ok) return redirect(`/inbox/work/${projectId}?done=added`, { status: 303, headers: privateHeaders });
    if (saved.kind === "stale")
      return answer({ form: "add", values, refusal: saved.message, revision: saved.revision }, 409);
    const index = (await draftContent(store)).content.projects.length;
    const errors = projectErrors(saved.errors, index);
    if (errors.project) return answer({ form: "add", values, refusal: errors.project }, 400);
    return answer({ form: "add", values, errors }, 400);
  }
  const { content } = await draftContent(store);
  const project = findProject(content, id);
  if (!project) return answer({ form: "list", refusal: words.errors.unknownProject }, 400);
  const edits: Record<string, { change: (draft: SiteContent) => SiteContent; action: string }> = {
    up: { change: (draft) => moveProject(draft, id, "up"), action: "project moved up" },
    down: { change: (draft) => moveProject(draft, id, "down"), action: "project moved down" },
    feature: { change: (draft) => setFeatured(draft, id, true), action: "project featured" },
    unfeature: { change: (draft) => setFeatured(draft, id, false), action: "project no longer featured" },
  };
  const edit = edits[intent];
  if (!edit) return answer({ form: "list", refusal: words.errors.unknownAction }, 400);
  const saved = await saveWorkChange(store, operator.email, {
    revision,
    change: edit.change,
    activity: { action: edit.action, detail: project.title },
  });
  if (saved.ok) return redirect("/inbox/work?done=saved", { status: 303, headers: privateHeaders });
  if (saved.kind === "stale") return answer({ form: "list", refusal: saved.message, revision: saved.revision }, 409);
  return answer({ form: "list", refusal: Object.values(saved.errors)[0] ?? words.errors.unknownAction }, 400);
}

/** A project's buttons in the list: up and down where it can move, and featured on or off. */
function listButtons(index: number, count: number, featured: boolean): [string, string][] {
  const buttons: [string, string][] = [];
  if (index > 0) buttons.push(["up", words.list.up]);
  if (index < count - 1) buttons.push(["down", words.list.down]);
  buttons.push(featured ? ["unfeature", words.list.unfeature] : ["feature", words.list.feature]);
  return buttons;
}

export default function InboxWork() {
  const page = useLoaderData<typeof loader>();
  const returned = useActionData<typeof action>() ?? null;
  const revision = returned?.revision ?? page.revision;
  const listRefusal = returned?.form === "list" ? returned.refusal : null;
  const add = returned?.form === "add" ? returned : null;
  return (
    <InboxShell operator={page.operator}>
      <h1 className="font-display text-3xl font-bold text-bone-50">{words.title}</h1>
      <p className="mt-1 max-w-3xl text-bone-300">{words.intro}</p>
      <div className="mt-4">
        <Notice>{returned ? null : page.notice}</Notice>
        <ErrorSummary lines={[listRefusal]} focusKey={returned?.formKey} className="mb-4" />
      </div>
      <section aria-labelledby="work-projects" className="mt-2">
        <h2 id="work-projects" className="font-display text-xl font-bold text-bone-50">
          {words.list.heading}
        </h2>
        {page.projects.length === 0 ? (
          <p className="mt-2 text-bone-300">{words.list.empty}</p>
        ) : (
          <ol className="mt-3 divide-y divide-night-600 rounded-xl border border-night-600 bg-night-800/70">
            {page.projects.map((project, index) => (
              <li key={project.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
                <div className="min-w-0">
                  <p className="font-semibold text-bone-50">
                    <Link to={`/inbox/work/${project.id}`} className={linkClass}>
                      {project.title}
                    </Link>
                    {project.featured ? (
                      <span className="ml-2 rounded bg-night-700 px-2 py-0.5 text-xs font-semibold text-ember-300">
                        {words.list.featured}
                      </span>
                    ) : null}
                  </p>
                  <p className="text-sm text-bone-300">
                    {[project.service, project.year, words.list.counts(project.photos, project.videos)]
                      .filter(Boolean)
                      .join(" · ")}
                  </p>
                </div>
                <Form method="post" className="flex flex-wrap gap-2">
                  <input type="hidden" name="revision" value={revision} />
                  {listButtons(index, page.projects.length, project.featured).map(([intent, label]) => (
                    <button
                      key={intent}
                      type="submit"
                      name="intent"
                      value={`${intent}:${project.id}`}
                      className={quietButtonClass}
                    >
                      <span className="sr-only">{words.list.prefix(project.title)}</span>
                      {label}
                    </button>
                  ))}
                </Form>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section
        aria-labelledby="work-add"
        className="mt-6 rounded-xl border border-night-600 bg-night-800/70 p-4 sm:p-5"
      >
        <h2 id="work-add" className="font-display text-xl font-bold text-bone-50">
          {words.add.heading}
        </h2>
        <Form method="post" noValidate key={add?.formKey ?? "add"}>
          <input type="hidden" name="revision" value={revision} />
          <ErrorSummary
            className="mt-3"
            lines={[add?.refusal, add && Object.keys(add.errors).length > 0 ? words.errors.summary : null]}
            problems={Object.entries(add?.errors ?? {}).map(([name, text]) => ({
              key: name,
              text,
              field: `add-${name}`,
            }))}
            focusKey={add?.formKey}
          />
          <div className="mt-3 grid gap-4 md:grid-cols-[3fr_2fr]">
            <TextField
              id="add-title"
              name="title"
              label={words.add.title}
              hint={words.add.titleHint}
              value={add?.values.title ?? ""}
              error={add?.errors.title}
              maxLength={limits.projectTitle}
              required
            />
            <Field id="add-service" label={words.add.service} error={add?.errors.service}>
              {(control) => (
                <select
                  {...control}
                  name="service"
                  defaultValue={add?.values.service ?? ""}
                  className={fieldInputClass(Boolean(add?.errors.service))}
                >
                  <option value="">{words.add.noService}</option>
                  {page.services.map((service) => (
                    <option key={service} value={service}>
                      {service}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <button type="submit" name="intent" value="add" className={`${buttonClass} mt-4`}>
            {words.add.submit}
          </button>
        </Form>
      </section>
    </InboxShell>
  );
}
