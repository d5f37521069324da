import { ensureRenditions } from "~/site-content/photo-renditions.server";
import { describeChanges } from "~/site-content/changes";
import { contentFromJson, defaultSiteContent, type SiteContent } from "~/site-content/schema.server";
import type { SiteChange, StaleDraft } from "~/store/site-versions.types";
import type { PhotoStore } from "~/store/photos.types";
import type { SiteStore } from "~/store/site-versions.types";

/**
 * Publishing, the one way for the Site page, a restore and `npm run inbox -- site import`: the content becomes the
 * draft and the next version in one transaction, with what it changed against the version it replaces, if the draft
 * is still at the revision the publisher started from. Nothing changed: nothing is published.
 */

export type PublishResult =
  | { ok: true; version: number; changes: SiteChange[] }
  | { ok: false; reason: "unchanged" }
  | (StaleDraft & { reason: "stale" });

/** The published content (the defaults before the first publish). */
export async function publishedContent(store: SiteStore): Promise<SiteContent> {
  const published = await store.publishedSite();
  return published ? contentFromJson(published.content) : defaultSiteContent;
}

/** The draft the Site page edits: the saved draft, or the published content when none was saved. */
export async function draftContent(store: SiteStore): Promise<{ content: SiteContent; revision: number }> {
  const draft = await store.siteDraft();
  return {
    content: draft.content ? contentFromJson(draft.content) : await publishedContent(store),
    revision: draft.revision,
  };
}

export async function publishContent(
  store: SiteStore & PhotoStore,
  content: SiteContent,
  baseRevision: number,
  actor: string,
  options: { restoredFrom?: number; now?: Date } = {},
): Promise<PublishResult> {
  const changes = describeChanges(await publishedContent(store), content);
  if (changes.length === 0) {
    // Still keep it as the draft (an edit back to what is public is a save).
    const saved = await store.saveSiteDraft(JSON.stringify(content), baseRevision, actor, options.now);
    return saved.ok ? { ok: false, reason: "unchanged" } : { ...saved, reason: "stale" };
  }
  const result = await store.publishSite(JSON.stringify(content), baseRevision, actor, changes, options);
  if (!result.ok) return { ...result, reason: "stale" };
  // A restored or imported version may place photos whose encoded files are not made yet.
  await ensureRenditions(store, content);
  return { ok: true, version: result.version, changes };
}
