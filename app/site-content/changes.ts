import { fieldLabels, serviceLabels, type FieldPath } from "~/site-content/fields";
import { describeProjectChanges } from "~/site-content/project-changes";
import type { PhotoPlacement, SiteContent } from "~/site-content/schema.server";
import type { SiteChange } from "~/store/site-versions.types";

/**
 * What a publish changed, field by field in the owner's words ("Season year: 2025 → 2027"), for the history page and
 * the activity log. Long texts are shortened for the list; the versions themselves keep every word.
 */

const shown = (value: unknown): string => {
  if (value === null || value === "" || (Array.isArray(value) && value.length === 0)) return "(empty)";
  if (typeof value === "boolean") return value ? "yes" : "no";
  const text = Array.isArray(value) ? value.join(", ") : String(value);
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > 80 ? `${oneLine.slice(0, 79)}…` : oneLine;
};

const blank = (value: unknown) => value === null || value === "";

/** A photo's place as the history names it: the upload (first characters of its id), its alt text, its focus. */
const placed = (photo: PhotoPlacement | null) =>
  photo
    ? `photo ${photo.upload.slice(0, 6)} “${photo.alt}” (focus ${Math.round(photo.focus.x * 100)} %, ${Math.round(photo.focus.y * 100)} %)`
    : "(drawn art)";

const scalarFields: [FieldPath, (content: SiteContent) => unknown][] = [
  ["season.year", (c) => c.season.year],
  ["season.ordersOpen", (c) => c.season.ordersOpen],
  ["season.closesOn", (c) => c.season.closesOn],
  ["season.closedLine", (c) => c.season.closedLine],
  ["home.tagline", (c) => c.home.tagline],
  ["home.ordersNote", (c) => c.home.ordersNote],
  ["about.text", (c) => c.about.text],
  ["about.experienceYears", (c) => c.about.experienceYears],
  ["contact.intro", (c) => c.contact.intro],
  ["business.name", (c) => c.business.name],
  ["business.email", (c) => c.business.email],
  ["business.phone", (c) => c.business.phone],
  ["business.region", (c) => c.business.region],
  ["business.links", (c) => c.business.links],
  ["business.currency", (c) => c.business.currency],
  ["acknowledgement.enabled", (c) => c.acknowledgement.enabled],
  ["acknowledgement.text", (c) => c.acknowledgement.text],
  ["acknowledgement.replyDays", (c) => c.acknowledgement.replyDays],
  ["photos.slides.0", (c) => placed(c.photos.slides[0])],
  ["photos.slides.1", (c) => placed(c.photos.slides[1])],
  ["photos.slides.2", (c) => placed(c.photos.slides[2])],
  ["photos.about", (c) => placed(c.photos.about)],
  ["photos.captions.0", (c) => c.photos.captions[0]],
  ["photos.captions.1", (c) => c.photos.captions[1]],
  ["photos.captions.2", (c) => c.photos.captions[2]],
];

export function describeChanges(before: SiteContent, after: SiteContent): SiteChange[] {
  const changes: SiteChange[] = [];
  for (const [path, read] of scalarFields) {
    const [old, now] = [read(before), read(after)];
    if (JSON.stringify(old) !== JSON.stringify(now)) {
      changes.push({ label: fieldLabels[path], before: shown(old), after: shown(now) });
    }
  }
  // Services by position: a reorder shows as the names that moved. A service added or removed without a price or a
  // lead time has nothing to say about them: empty before and after is no change.
  const count = Math.max(before.services.length, after.services.length);
  for (let index = 0; index < count; index++) {
    const [old, now] = [before.services[index], after.services[index]];
    for (const part of ["name", "detail", "startingPrice", "leadTime"] as const) {
      const [was, is] = [old?.[part] ?? null, now?.[part] ?? null];
      if (was !== is && !(blank(was) && blank(is))) {
        changes.push({ label: serviceLabels[part](index + 1), before: shown(was), after: shown(is) });
      }
    }
  }
  changes.push(...describeProjectChanges(before, after));
  return changes;
}
