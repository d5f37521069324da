import { limits, slugOf } from "~/site-content/fields";
import type { PhotoPlacement, Project, SiteContent } from "~/site-content/schema.server";

/**
 * The Work page's edits of the content's projects, each a function from the content to the new content: the route
 * validates the result with the one schema and saves it as the draft. Nothing here checks limits the schema checks.
 */

/** A new project's id: 12 random hex digits (never shown, never changed; the address is its slug). */
export function newProjectId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** What the project's form holds, as typed. */
export interface ProjectFields {
  title: string;
  service: string;
  year: string;
  client: string;
  story: string;
  featured: boolean;
}

export const projectFieldsOf = (project: Project): ProjectFields => ({
  title: project.title,
  service: project.service ?? "",
  year: project.year === null ? "" : String(project.year),
  client: project.client,
  story: project.story,
  featured: project.featured,
});

/** The form's fields as the schema reads them: a year only as four digits typed ("0x7E7" is not a year). */
function projectInput(fields: ProjectFields) {
  const year = fields.year.trim();
  return {
    title: fields.title,
    slug: slugOf(fields.title),
    service: fields.service === "" ? null : fields.service,
    year: year === "" ? null : /^\d{4}$/.test(year) ? Number(year) : Number.NaN,
    client: fields.client,
    story: fields.story,
    featured: fields.featured,
  };
}

export const findProject = (content: SiteContent, id: string) => content.projects.find((project) => project.id === id);

function withProject(content: SiteContent, id: string, change: (project: Project) => Project): SiteContent {
  return { ...content, projects: content.projects.map((project) => (project.id === id ? change(project) : project)) };
}

/** A new project at the end of the list, with the title and service typed in "Add a project". */
export function addProject(content: SiteContent, id: string, fields: Pick<ProjectFields, "title" | "service">) {
  const input = projectInput({ ...fields, year: "", client: "", story: "", featured: false });
  const project = { id, formerSlugs: [], photos: [], videos: [], ...input } as Project;
  return { ...content, projects: [...content.projects, project] };
}

/**
 * The project's fields as typed. A new title gives a new address; the old one is kept among the former addresses, so a
 * link to it (shared, bookmarked, indexed) is answered with a 301.
 */
export function updateProject(content: SiteContent, id: string, fields: ProjectFields): SiteContent {
  return withProject(content, id, (project) => {
    const input = projectInput(fields);
    const renamed = input.slug !== project.slug && input.slug !== "";
    const formerSlugs = renamed
      ? [...project.formerSlugs.filter((slug) => slug !== input.slug && slug !== project.slug), project.slug].slice(-20)
      : project.formerSlugs;
    return { ...project, ...input, slug: input.slug === "" ? project.slug : input.slug, formerSlugs } as Project;
  });
}

export type Direction = "up" | "down";

function moved<T>(list: readonly T[], index: number, direction: Direction): T[] {
  const to = direction === "up" ? index - 1 : index + 1;
  const copy = [...list];
  if (index < 0 || index >= copy.length || to < 0 || to >= copy.length) return copy;
  [copy[index], copy[to]] = [copy[to]!, copy[index]!];
  return copy;
}

export function moveProject(content: SiteContent, id: string, direction: Direction): SiteContent {
  const index = content.projects.findIndex((project) => project.id === id);
  return { ...content, projects: moved(content.projects, index, direction) };
}

export function removeProject(content: SiteContent, id: string): SiteContent {
  return { ...content, projects: content.projects.filter((project) => project.id !== id) };
}

export const setFeatured = (content: SiteContent, id: string, featured: boolean) =>
  withProject(content, id, (project) => ({ ...project, featured }));

/** A photo added at the end (the cover stays the first); the schema refuses a 13th. */
export const addProjectPhoto = (content: SiteContent, id: string, photo: PhotoPlacement) =>
  withProject(content, id, (project) => ({ ...project, photos: [...project.photos, photo] }));

export type PhotoEdit =
  | { kind: "save"; alt: string; focus: { x: number; y: number } }
  | { kind: "move"; direction: Direction }
  | { kind: "cover" }
  | { kind: "remove" };

/** One of the project's photos (by its place in the list) described, focused, moved, made the cover or taken off. */
export function editProjectPhoto(content: SiteContent, id: string, index: number, edit: PhotoEdit): SiteContent {
  return withProject(content, id, (project) => {
    const photo = project.photos[index];
    if (!photo) return project;
    const photos = [...project.photos];
    if (edit.kind === "save") photos[index] = { ...photo, alt: edit.alt, focus: edit.focus };
    if (edit.kind === "remove") photos.splice(index, 1);
    if (edit.kind === "cover") photos.unshift(...photos.splice(index, 1));
    return { ...project, photos: edit.kind === "move" ? moved(photos, index, edit.direction) : photos };
  });
}

export const addProjectVideo = (content: SiteContent, id: string, video: string) =>
  withProject(content, id, (project) => ({ ...project, videos: [...project.videos, { video }] }));

export function editProjectVideo(
  content: SiteContent,
  id: string,
  index: number,
  edit: { kind: "move"; direction: Direction } | { kind: "remove" },
): SiteContent {
  return withProject(content, id, (project) => {
    if (!project.videos[index]) return project;
    if (edit.kind === "move") return { ...project, videos: moved(project.videos, index, edit.direction) };
    return { ...project, videos: project.videos.filter((_, at) => at !== index) };
  });
}

/**
 * The draft's projects for a new list of services (the Site page's save): a project keeps its service while a service
 * of that name exists; a service renamed in place (same position, same number of services) takes its projects with
 * it; a project whose service was removed has none.
 */
export function projectsWithServices(content: SiteContent, services: readonly { name: string }[]): Project[] {
  const names = services.map((service) => String(service.name ?? "").trim());
  return content.projects.map((project) => {
    if (project.service === null || names.includes(project.service)) return project;
    const at = content.services.findIndex((service) => service.name === project.service);
    const renamed = at >= 0 && services.length === content.services.length ? names[at] : undefined;
    return { ...project, service: renamed || null };
  });
}

/** Whether the project can take one more photo or clip (the forms say so instead of offering an upload). */
export const photoRoom = (project: Project) => project.photos.length < limits.projectPhotosMax;
export const videoRoom = (project: Project) => project.videos.length < limits.projectVideosMax;
