import { describe, expect, it } from "vitest";
import { editServices, errorsByField, fromContent, fromForm, toInput } from "~/site-content/form";
import { defaultSiteContent, validateSiteContent } from "~/site-content/schema.server";

const services = [
  { name: "A", detail: "a" },
  { name: "B", detail: "b" },
  { name: "C", detail: "c" },
];

describe("the Site page's form", () => {
  it("gives back the draft unchanged when nothing was edited", () => {
    const form = new FormData();
    const values = fromContent(defaultSiteContent);
    for (const [name, value] of Object.entries({
      "season.year": values.year,
      "season.closesOn": values.closesOn,
      "season.ordersOpen": "on",
      "season.closedLine": values.closedLine,
      "home.tagline": values.tagline,
      "home.ordersNote": values.ordersNote,
      "about.text": values.aboutText,
      "about.experienceYears": values.experienceYears,
      "contact.intro": values.contactIntro,
      "business.name": values.businessName,
      "business.email": "",
      "business.phone": "",
      "business.region": "",
      "business.links": "",
    }))
      form.set(name, value);
    // Posted out of order and with a gap: the positions' order counts, not the numbers.
    [...values.services].reverse().forEach((service, reversed) => {
      const index = (values.services.length - 1 - reversed) * 10;
      form.set(`services.${index}.name`, service.name);
      form.set(`services.${index}.detail`, service.detail);
    });
    expect(validateSiteContent(toInput(fromForm(form)))).toEqual({ ok: true, content: defaultSiteContent });
  });

  it("takes only whole numbers as typed as a year, and reads links one a line", () => {
    const values = {
      ...fromContent(defaultSiteContent),
      year: "0x7E7",
      links: "\nhttps://a.example\n\n not a link \n",
    };
    const result = validateSiteContent(toInput(values));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(errorsByField(result.errors)).toEqual({
      "season.year": "Please enter a four-digit year from 2000 to 2100.",
      "business.links": "Line 2: Please enter a full web address starting with https:// or http://.",
    });
  });

  it("adds, removes and moves services, and leaves the list alone for a position it does not have", () => {
    expect(editServices(services, "add-service")).toEqual([...services, { name: "", detail: "" }]);
    expect(editServices(services, "remove-service:1")).toEqual([services[0], services[2]]);
    expect(editServices(services, "up-service:1")).toEqual([services[1], services[0], services[2]]);
    expect(editServices(services, "down-service:2")).toEqual(services);
    expect(editServices(services, "remove-service:99")).toEqual(services);
    expect(editServices(services, "save")).toBeNull();
    expect(editServices(services, "publish:1")).toBeNull();
  });
});
