import { describe, expect, it } from "vitest";
import { describeProjectChanges } from "~/site-content/project-changes";
import {
  addProject,
  addProjectPhoto,
  addProjectVideo,
  editProjectPhoto,
  editProjectVideo,
  moveProject,
  newProjectId,
  removeProject,
  setFeatured,
  updateProject,
} from "~/site-content/project-edits";
import { defaultSiteContent, validateSiteContent, type SiteContent } from "~/site-content/schema.server";

const photo = (n: number) => ({
  upload: String(n).repeat(24).slice(0, 24),
  alt: `Photo ${n}`,
  focus: { x: 0.5, y: 0.5 },
});
const fields = {
  title: "Reaper with pneumatic lunge",
  service: "",
  year: "2025",
  client: "",
  story: "",
  featured: false,
};

function valid(content: SiteContent): SiteContent {
  const checked = validateSiteContent(content);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.content;
}

describe("the Work page's edits", () => {
  it("adds a project with an address made from its title, and renames keep the old address", () => {
    const id = newProjectId();
    expect(id).toMatch(/^[0-9a-f]{12}$/);
    const added = valid(addProject(defaultSiteContent, id, { title: "Reaper with pneumatic lunge", service: "" }));
    expect(added.projects[0]).toMatchObject({ id, slug: "reaper-with-pneumatic-lunge", formerSlugs: [], year: null });
    const renamed = valid(updateProject(added, id, { ...fields, title: "Reaper, the lunging one" }));
    expect(renamed.projects[0]).toMatchObject({
      slug: "reaper-the-lunging-one",
      formerSlugs: ["reaper-with-pneumatic-lunge"],
      year: 2025,
    });
    // Back to the first title: its address is current again, not also a former one.
    const back = valid(updateProject(renamed, id, fields));
    expect(back.projects[0]).toMatchObject({
      slug: "reaper-with-pneumatic-lunge",
      formerSlugs: ["reaper-the-lunging-one"],
    });
  });

  it("refuses a title whose address is a service's or another project's, a bad year, and an unknown service", () => {
    const one = addProject(defaultSiteContent, "aaaaaaaaaaaa", { title: "Lunge", service: "" });
    const two = addProject(one, "bbbbbbbbbbbb", { title: "lunge!", service: "" });
    expect(validateSiteContent(two)).toMatchObject({ ok: false, errors: { "projects.1.title": expect.any(String) } });
    const service = addProject(defaultSiteContent, "cccccccccccc", { title: "Custom haunt electronics", service: "" });
    expect(validateSiteContent(service).ok).toBe(false);
    const year = updateProject(one, "aaaaaaaaaaaa", { ...fields, title: "Lunge", year: "0x7E7" });
    expect(validateSiteContent(year)).toMatchObject({
      ok: false,
      errors: { "projects.0.year": expect.stringMatching(/four-digit year/) },
    });
    const unknown = updateProject(one, "aaaaaaaaaaaa", { ...fields, title: "Lunge", service: "Fog machines" });
    expect(validateSiteContent(unknown)).toMatchObject({
      ok: false,
      errors: { "projects.0.service": expect.any(String) },
    });
  });

  it("moves, features and removes projects; orders, covers and removes photos and clips", () => {
    let content = addProject(defaultSiteContent, "aaaaaaaaaaaa", { title: "One", service: "" });
    content = addProject(content, "bbbbbbbbbbbb", { title: "Two", service: "" });
    content = moveProject(content, "bbbbbbbbbbbb", "up");
    expect(content.projects.map((p) => p.title)).toEqual(["Two", "One"]);
    content = setFeatured(content, "aaaaaaaaaaaa", true);
    content = [1, 2, 3].reduce((c, n) => addProjectPhoto(c, "aaaaaaaaaaaa", photo(n)), content);
    content = editProjectPhoto(content, "aaaaaaaaaaaa", 2, { kind: "cover" });
    expect(content.projects[1]!.photos.map((p) => p.alt)).toEqual(["Photo 3", "Photo 1", "Photo 2"]);
    content = editProjectPhoto(content, "aaaaaaaaaaaa", 0, { kind: "move", direction: "down" });
    content = editProjectPhoto(content, "aaaaaaaaaaaa", 2, { kind: "remove" });
    expect(content.projects[1]!.photos.map((p) => p.alt)).toEqual(["Photo 1", "Photo 3"]);
    content = addProjectVideo(addProjectVideo(content, "aaaaaaaaaaaa", "a".repeat(24)), "aaaaaaaaaaaa", "b".repeat(24));
    content = editProjectVideo(content, "aaaaaaaaaaaa", 1, { kind: "move", direction: "up" });
    expect(content.projects[1]!.videos.map((v) => v.video[0])).toEqual(["b", "a"]);
    expect(valid(content).projects[1]!.featured).toBe(true);
    expect(removeProject(content, "bbbbbbbbbbbb").projects.map((p) => p.title)).toEqual(["One"]);
  });

  it("refuses a 13th photo and a 4th clip", () => {
    let content = addProject(defaultSiteContent, "aaaaaaaaaaaa", { title: "One", service: "" });
    content = Array.from({ length: 13 }, (_, n) => n).reduce(
      (c, n) => addProjectPhoto(c, "aaaaaaaaaaaa", photo(n)),
      content,
    );
    expect(validateSiteContent(content).ok).toBe(false);
    let clips = addProject(defaultSiteContent, "aaaaaaaaaaaa", { title: "One", service: "" });
    clips = ["a", "b", "c", "d"].reduce((c, n) => addProjectVideo(c, "aaaaaaaaaaaa", n.repeat(24)), clips);
    expect(validateSiteContent(clips).ok).toBe(false);
  });
});

describe("what a publish changes in the Work pages", () => {
  it("names added and removed projects, their fields, photos, clips and moves in the owner's words", () => {
    const before = valid(addProject(defaultSiteContent, "aaaaaaaaaaaa", { title: "One", service: "" }));
    let after = addProject(before, "bbbbbbbbbbbb", { title: "Reaper with pneumatic lunge", service: "" });
    after = addProjectVideo(after, "bbbbbbbbbbbb", "a".repeat(24));
    after = updateProject(after, "aaaaaaaaaaaa", { ...fields, title: "One", year: "2024" });
    after = addProjectPhoto(after, "aaaaaaaaaaaa", photo(1));
    expect(describeProjectChanges(before, valid(after))).toEqual([
      { label: "Project “One” year", before: "(empty)", after: "2024" },
      { label: "Project “One” photo 1", before: "", after: "added" },
      { label: "Project “Reaper with pneumatic lunge”", before: "", after: "added" },
    ]);
    const swapped = valid(moveProject(after, "bbbbbbbbbbbb", "up"));
    expect(describeProjectChanges(valid(after), swapped)).toEqual([
      { label: "Project “Reaper with pneumatic lunge”", before: "", after: "moved to place 1" },
      { label: "Project “One”", before: "", after: "moved to place 2" },
    ]);
    expect(describeProjectChanges(swapped, valid(removeProject(swapped, "aaaaaaaaaaaa")))).toEqual([
      { label: "Project “One”", before: "", after: "removed" },
    ]);
  });
});
