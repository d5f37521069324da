import type { Project, SiteContent } from "~/site-content/schema.server";
import type { SiteChange } from "~/store/site-versions.types";

/**
 * What a publish changes in the Work pages, project by project in the owner's words: ‘Project “Reaper”: added’,
 * ‘Project “Reaper” video 1: added’, ‘Project “Reaper” title: Reaper → Reaper with lunge’. Projects are matched by
 * their id, so a rename is a change of title, not a removal and an addition. An event has no "before" (empty).
 */

const name = (project: Project) => `Project “${project.title}”`;

const short = (text: string) => {
  const line = text.replace(/\s+/g, " ").trim();
  if (line === "") return "(empty)";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
};

const fields: [string, (project: Project) => string][] = [
  ["title", (project) => project.title],
  ["service", (project) => project.service ?? ""],
  ["year", (project) => (project.year === null ? "" : String(project.year))],
  ["client or place", (project) => project.client],
  ["story", (project) => project.story],
  ["featured", (project) => (project.featured ? "yes" : "no")],
];

const event = (label: string, what: string): SiteChange => ({ label, before: "", after: what });

export function describeProjectChanges(before: SiteContent, after: SiteContent): SiteChange[] {
  const changes: SiteChange[] = [];
  const old = new Map(before.projects.map((project) => [project.id, project]));
  const now = new Set(after.projects.map((project) => project.id));
  for (const project of before.projects) {
    if (!now.has(project.id)) changes.push(event(name(project), "removed"));
  }
  for (const project of after.projects) {
    const previous = old.get(project.id);
    if (!previous) {
      changes.push(event(name(project), "added"));
      continue;
    }
    const own: SiteChange[] = [];
    for (const [field, read] of fields) {
      if (read(previous) !== read(project))
        own.push({ label: `${name(project)} ${field}`, before: short(read(previous)), after: short(read(project)) });
    }
    own.push(...mediaChanges(project, previous.photos, project.photos, "photo", (photo) => photo.upload));
    own.push(...mediaChanges(project, previous.videos, project.videos, "video", (video) => video.video));
    // A move shows as the project's new place among those kept (an addition or removal elsewhere moves nothing).
    const place = (list: readonly Project[]) =>
      list.filter((each) => old.has(each.id) && now.has(each.id)).findIndex((each) => each.id === project.id);
    if (place(before.projects) !== place(after.projects))
      own.push(event(name(project), `moved to place ${after.projects.indexOf(project) + 1}`));
    changes.push(...own);
  }
  return changes;
}

/** Photos and clips by what they hold: added, removed, or (the same ones) put in another order; alt text changes too. */
function mediaChanges<T extends object>(
  project: Project,
  before: readonly T[],
  after: readonly T[],
  kind: "photo" | "video",
  idOf: (item: T) => string,
): SiteChange[] {
  const changes: SiteChange[] = [];
  const was = before.map(idOf);
  const is = after.map(idOf);
  after.forEach((item, index) => {
    const at = was.indexOf(idOf(item));
    if (at === -1) changes.push(event(`${name(project)} ${kind} ${index + 1}`, "added"));
    else if (JSON.stringify(before[at]) !== JSON.stringify(item))
      changes.push(event(`${name(project)} ${kind} ${index + 1}`, "described or refocused"));
  });
  before.forEach((item, index) => {
    if (!is.includes(idOf(item))) changes.push(event(`${name(project)} ${kind} ${index + 1}`, "removed"));
  });
  const kept = was.filter((id) => is.includes(id));
  const keptNow = is.filter((id) => was.includes(id));
  if (kept.join() !== keptNow.join()) changes.push(event(`${name(project)} ${kind}s`, "put in a new order"));
  return changes;
}
