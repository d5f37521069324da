import { describe, expect, it } from "vitest";
import type { Project } from "~/site-content/schema.server";
import { aboutLine, projectAddress, projectForId, projectForSlug } from "~/enquiry/about.server";
import { composeEmail } from "~/notify/channels/email.server";
import { webhookBody } from "~/notify/channels/webhook-formats";
import { summaryText } from "~/notify/channels/webhook-formats/text";
import type { StoredEnquiry } from "~/store/records";

const reaper: Project = {
  id: "0123456789ab",
  slug: "reaper-with-pneumatic-lunge",
  formerSlugs: ["lunging-reaper"],
  title: "Reaper with pneumatic lunge",
  service: null,
  year: 2025,
  client: "",
  story: "",
  photos: [],
  videos: [],
  featured: false,
};
const projects = [reaper, { ...reaper, id: "ba9876543210", slug: "coffin-lift", formerSlugs: [], title: "Coffin" }];
const line = "About the build: Reaper with pneumatic lunge — https://site.example/work/reaper-with-pneumatic-lunge";

const enquiry: StoredEnquiry = {
  id: "e-1",
  receivedAt: new Date("2026-10-01T18:30:05.123Z"),
  name: "Ann Visitor",
  email: "ann@visitor.example",
  message: "About your build “Reaper with pneumatic lunge”: one more, please.",
  status: "new",
  spamVerdict: "none",
  spamScore: 0,
  spamReasons: [],
  spamDecision: null,
  about: { projectId: reaper.id, slug: reaper.slug, title: reaper.title },
};

describe("a project named by ?about= or the posted id", () => {
  it("is found by its slug, a former slug or its id", () => {
    expect(projectForSlug(projects, "reaper-with-pneumatic-lunge")).toBe(reaper);
    expect(projectForSlug(projects, "lunging-reaper")).toBe(reaper);
    expect(projectForId(projects, "0123456789ab")).toBe(reaper);
  });

  it.each([null, "", "nope", "Reaper-With-Pneumatic-Lunge", "../inbox", "a".repeat(201), "0123456789ab"])(
    "is nobody for the slug %j",
    (slug) => expect(projectForSlug(projects, slug)).toBeUndefined(),
  );

  it.each([undefined, "", "ffffffffffff", "0123456789AB", "reaper-with-pneumatic-lunge", 12])(
    "is nobody for the id %j",
    (id) => expect(projectForId(projects, id)).toBeUndefined(),
  );
});

describe("the project's line in the notifications", () => {
  it("names the title and the project's page on the site", () => {
    expect(projectAddress("https://site.example/", "coffin-lift")).toBe("https://site.example/work/coffin-lift");
    expect(projectAddress(null, "coffin-lift")).toBe("/work/coffin-lift");
    expect(aboutLine(enquiry.about!, "https://site.example")).toBe(line);
  });

  it("is in the e-mail, the chat summary and the json body; absent for an enquiry about no project", () => {
    const sender = { business: { name: "Grimforge" } as never, siteUrl: "https://site.example" };
    const config = { to: ["owner@example.com"], from: "site@example.com" };
    expect(composeEmail(enquiry, config, new Date(), sender).text.split("\n")).toContain(line);
    expect(summaryText(enquiry, "https://site.example").split("\n")).toEqual([
      expect.stringMatching(/^New enquiry from Ann Visitor/),
      line,
      "",
      enquiry.message,
    ]);
    expect(webhookBody("json", enquiry, "https://site.example")).toMatchObject({
      enquiry: { about: { ...enquiry.about, url: "https://site.example/work/reaper-with-pneumatic-lunge" } },
    });
    const { about: _, ...plain } = enquiry;
    expect(composeEmail(plain, config, new Date(), sender).text).not.toContain("About the build");
    expect(summaryText(plain, "https://site.example")).not.toContain("About the build");
  });
});
