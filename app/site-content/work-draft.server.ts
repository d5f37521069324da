import { staleMessage } from "~/site-content/editor.server";
import { ensureRenditions } from "~/site-content/photo-renditions.server";
import { draftContent } from "~/site-content/publish.server";
import { validateSiteContent, type SiteContent } from "~/site-content/schema.server";
import type { OwnerStore } from "~/store/owner.types";
import type { PhotoStore } from "~/store/photos.types";
import type { SiteStore } from "~/store/site-versions.types";

/**
 * One change of the Work pages saved into the site's draft: the change applied to the draft as it is, the result
 * validated by the one schema, kept if the draft is still at the revision the owner's page was opened at (a change
 * from a stale page is refused with who saved and when), the photos it places asked to be encoded, and an entry in
 * the activity log.
 */

export type WorkSave =
  | { ok: true; content: SiteContent }
  | { ok: false; kind: "invalid"; errors: Record<string, string> }
  | { ok: false; kind: "stale"; message: string; revision: number };

export interface WorkChange {
  /** The draft's revision the owner's page showed; null: whatever it is now (an upload that landed in between). */
  revision: number | null;
  change: (content: SiteContent) => SiteContent;
  /** The activity log's line: what was done ("project added") and to what (its title). */
  activity: { action: string; detail: string };
}

export async function saveWorkChange(
  store: SiteStore & PhotoStore & OwnerStore,
  actor: string,
  { revision, change, activity }: WorkChange,
): Promise<WorkSave> {
  const draft = await draftContent(store);
  const checked = validateSiteContent(change(draft.content));
  if (!checked.ok) return { ok: false, kind: "invalid", errors: checked.errors };
  const saved = await store.saveSiteDraft(JSON.stringify(checked.content), revision ?? draft.revision, actor);
  if (!saved.ok)
    return { ok: false, kind: "stale", message: staleMessage(saved.draft), revision: saved.draft.revision };
  await ensureRenditions(store, checked.content);
  await store.logActivity({ actor, action: `work: ${activity.action}`, detail: activity.detail });
  return { ok: true, content: checked.content };
}

/** The schema's problems of one project, by its form's field names ("projects.2.title" -> "title"). */
export function projectErrors(errors: Record<string, string>, index: number): Record<string, string> {
  const mine: Record<string, string> = {};
  const prefix = `projects.${index}.`;
  for (const [path, message] of Object.entries(errors)) {
    if (path.startsWith(prefix)) mine[path.slice(prefix.length).split(".")[0]!] ??= message;
    else if (path === "projects") mine.project ??= message;
  }
  return mine;
}

/** A revision as posted: anything but digits is never the draft's (refused as stale, as the Site page does). */
export const postedRevision = (value: FormDataEntryValue | null) =>
  typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : -1;
