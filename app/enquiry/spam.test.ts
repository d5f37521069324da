import { describe, expect, it } from "vitest";
import type { FormTokenProblem } from "~/enquiry/form-token.server";
import { judgeEnquiry } from "~/enquiry/spam";
import { realEnquiries, spamEnquiries } from "../../tests/support/spam-corpus";

const plain = { name: "Jane Doe", email: "jane@example.com", message: "Do you build animatronic werewolves?" };

describe("spam verdict: each signal alone", () => {
  it("an ordinary enquiry has no reasons", () => {
    expect(judgeEnquiry(plain)).toEqual({ spam: false, reasons: [], score: 0 });
  });

  it("the hidden field filled is spam", () => {
    expect(judgeEnquiry({ ...plain, honeypot: "http://x.example" })).toMatchObject({
      spam: true,
      reasons: ["hidden field filled"],
    });
  });

  it.each<[FormTokenProblem, string]>([
    ["missing", "form token missing"],
    ["forged", "form token forged"],
    ["expired", "form token older than 24 h"],
    ["used", "form token used before"],
    ["too-fast", "posted less than 3 s after the form was served"],
  ])("a form token %s is spam", (problem, reason) => {
    expect(judgeEnquiry({ ...plain, formToken: problem })).toMatchObject({ spam: true, reasons: [reason] });
  });

  it("more than two links is spam; two are not", () => {
    const links = (n: number) => Array.from({ length: n }, (_, i) => `https://shop${i}.example.com/`).join(" and ");
    expect(judgeEnquiry({ ...plain, message: `See ${links(3)}` })).toMatchObject({
      spam: true,
      reasons: ["more than two links (3)"],
    });
    expect(judgeEnquiry({ ...plain, message: `See ${links(2)}` })).toMatchObject({ spam: false, reasons: [] });
  });

  it.each(["Jane jane@example.com", "www.cheap.example", "https://x.example", "Best offers at deals.com"])(
    "a link or address in the name is spam: %s",
    (name) => {
      expect(judgeEnquiry({ ...plain, name })).toMatchObject({ spam: true, reasons: ["link or address in the name"] });
    },
  );

  it("a name with dots and capitals is not an address", () => {
    expect(judgeEnquiry({ ...plain, name: "Mr.Smith J. R. R. McDONALD" }).reasons).toEqual([]);
  });

  it("mostly capitals is a reason, but alone not spam", () => {
    const verdict = judgeEnquiry({ ...plain, message: "PLEASE SEND ME A PRICE FOR THE COFFIN PROP THANK YOU" });
    expect(verdict).toMatchObject({ spam: false, reasons: ["mostly capital letters"], score: 0.5 });
  });

  it("one listed phrase is a reason, but alone not spam; two are spam", () => {
    expect(judgeEnquiry({ ...plain, message: "Do you take crypto?" })).toMatchObject({
      spam: false,
      reasons: ['phrase "crypto"'],
    });
    expect(judgeEnquiry({ ...plain, message: "Guest post with a backlink?" })).toMatchObject({
      spam: true,
      reasons: ['phrase "backlink"', 'phrase "guest post"'],
    });
  });

  it("phrases match whole words only", () => {
    expect(judgeEnquiry({ ...plain, message: "We are a haunt in Seoul; our seo-free site." }).reasons).toEqual([
      'phrase "seo"',
    ]);
    expect(judgeEnquiry({ ...plain, message: "We are a haunt in Seoul." }).reasons).toEqual([]);
  });
});

describe("spam corpus", () => {
  it("has enough of both", () => {
    expect(realEnquiries.length).toBeGreaterThanOrEqual(30);
    expect(spamEnquiries.length).toBeGreaterThanOrEqual(30);
  });

  it.each(realEnquiries.map((enquiry) => [enquiry.name, enquiry] as const))("real enquiry passes: %s", (_, enquiry) => {
    expect(judgeEnquiry(enquiry).spam).toBe(false);
  });

  // By content alone, as the JSON endpoint judges (a form post adds the token's signals): 25 / 32 when measured. The
  // floor keeps a change from quietly catching less; a better filter raises it.
  it("catches spam by content alone (the catch rate in docs/spam-and-retention.md)", () => {
    const missed = spamEnquiries.filter((enquiry) => !judgeEnquiry(enquiry).spam);
    const caught = spamEnquiries.length - missed.length;
    console.log(`spam corpus: caught ${caught} / ${spamEnquiries.length}, real caught 0 / ${realEnquiries.length}`);
    for (const enquiry of missed) console.log(`  missed: ${enquiry.name}: ${enquiry.message.slice(0, 60)}`);
    expect(caught).toBeGreaterThanOrEqual(25);
  });
});
