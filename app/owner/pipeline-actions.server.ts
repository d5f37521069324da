import { data, redirect } from "@remix-run/node";
import { privateHeaders } from "~/owner/headers";
import { readNote, readStageForm, stageFormValues, type StageFormValues } from "~/owner/stage-form.server";
import type { PipelineStore } from "~/store/pipeline.types";
import { pipelineCopy } from "~/wording/pipeline";

/**
 * The enquiry page's pipeline forms ("Save stage", "Add note"): checked, saved, answered with a redirect to the page
 * (post/redirect/get), or refused with what was typed and each field's message.
 */

/** What a refused pipeline form gives back to the page. */
export type PipelineRefusal =
  | { form: "stage"; values: StageFormValues; errors: Partial<Record<keyof StageFormValues, string>> }
  | { form: "note"; note: string; error: string };

const back = (id: string, done: string) =>
  redirect(`/inbox/${encodeURIComponent(id)}?done=${done}`, { status: 303, headers: privateHeaders });

export async function saveStageForm(
  id: string,
  form: FormData,
  {
    store,
    actor,
    site,
  }: {
    store: PipelineStore;
    actor: string;
    site: { business: { currency: string }; services: readonly { name: string }[] };
  },
) {
  const values = stageFormValues(form);
  const read = readStageForm(values, {
    services: site.services.map((service) => service.name),
    currency: site.business.currency,
  });
  if (!read.ok) {
    const refusal: PipelineRefusal = { form: "stage", values, errors: read.errors };
    return data(refusal, { status: read.errors.revision ? 409 : 422, headers: privateHeaders });
  }
  const saved = await store.saveStage(id, read.change, read.revision, actor);
  if (saved.outcome === "missing") throw new Response(null, { status: 404, headers: privateHeaders });
  if (saved.outcome === "stale") {
    const refusal: PipelineRefusal = { form: "stage", values, errors: { revision: pipelineCopy.form.errors.stale } };
    return data(refusal, { status: 409, headers: privateHeaders });
  }
  return back(id, saved.changed ? "stage" : "stage-unchanged");
}

export async function addNoteForm(
  id: string,
  form: FormData,
  { store, actor }: { store: PipelineStore; actor: string },
) {
  const typed = String(form.get("note") ?? "");
  const note = readNote(typed);
  if (!note.ok) {
    const refusal: PipelineRefusal = { form: "note", note: typed.slice(0, 20_000), error: note.error };
    return data(refusal, { status: 422, headers: privateHeaders });
  }
  if (!(await store.addNote(id, note.text, actor))) throw new Response(null, { status: 404, headers: privateHeaders });
  return back(id, "note");
}
