import { describe, expect, it } from "vitest";
import { editServices, errorsByField, fieldOrder, fromContent, fromForm, toInput } from "~/site-content/form";
import { defaultSiteContent, validateSiteContent } from "~/site-content/schema.server";

const services = [
  { name: "A", detail: "a", startingPrice: "4500", leadTime: "8–12 weeks" },
  { name: "B", detail: "b", startingPrice: "", leadTime: "" },
  { name: "C", detail: "c", startingPrice: "", leadTime: "" },
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
      "business.currency": values.currency,
      "acknowledgement.text": values.acknowledgementText,
      "acknowledgement.replyDays": values.replyDays,
    }))
      form.set(name, value);
    // Posted out of order and with a gap: the positions' order counts, not the numbers.
    [...values.services].reverse().forEach((service, reversed) => {
      const index = (values.services.length - 1 - reversed) * 10;
      form.set(`services.${index}.name`, service.name);
      form.set(`services.${index}.detail`, service.detail);
      form.set(`services.${index}.startingPrice`, service.startingPrice);
      form.set(`services.${index}.leadTime`, service.leadTime);
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
    expect(editServices(services, "add-service")).toEqual([
      ...services,
      { name: "", detail: "", startingPrice: "", leadTime: "" },
    ]);
    expect(editServices(services, "remove-service:1")).toEqual([services[0], services[2]]);
    expect(editServices(services, "up-service:1")).toEqual([services[1], services[0], services[2]]);
    expect(editServices(services, "down-service:2")).toEqual(services);
    expect(editServices(services, "remove-service:99")).toEqual(services);
    expect(editServices(services, "save")).toBeNull();
    expect(editServices(services, "publish:1")).toBeNull();
  });

  it("reads a starting price, a lead time and the currency, and shows them back as typed", () => {
    const form = new FormData();
    form.set("services.0.name", "Pop-ups");
    form.set("services.0.detail", "Air-powered scares.");
    form.set("services.0.startingPrice", " 4500 ");
    form.set("services.0.leadTime", "8–12 weeks");
    // A service posted with only a price is still a service (its name is then asked for).
    form.set("services.1.startingPrice", "900");
    form.set("business.currency", "eur");
    const values = fromForm(form);
    expect(values.services).toEqual([
      { name: "Pop-ups", detail: "Air-powered scares.", startingPrice: " 4500 ", leadTime: "8–12 weeks" },
      { name: "", detail: "", startingPrice: "900", leadTime: "" },
    ]);
    expect(values.currency).toBe("eur");
    const result = validateSiteContent(
      toInput({ ...fromContent(defaultSiteContent), services: values.services, currency: values.currency }),
    );
    expect(result.ok || result.errors).toEqual({
      "services.1.name": "Please fill this in.",
      "services.1.detail": "Please fill this in.",
    });

    const good = { ...fromContent(defaultSiteContent), currency: " eur " };
    good.services[0] = { ...good.services[0]!, startingPrice: "04500", leadTime: " 8–12 weeks " };
    const checked = validateSiteContent(toInput(good));
    expect(checked.ok && checked.content.services[0]).toMatchObject({ startingPrice: 4500, leadTime: "8–12 weeks" });
    expect(checked.ok && checked.content.services[1]).toMatchObject({ startingPrice: null, leadTime: "" });
    expect(checked.ok && checked.content.business.currency).toBe("EUR");
    if (checked.ok) expect(fromContent(checked.content).services[0]).toMatchObject({ startingPrice: "4500" });
  });

  it.each(["4,500$", "-1", "abc", "4.5", "1e4", "0x10", "10000001"])(
    "refuses %j as a starting price with a plain message, beside the field",
    (typed) => {
      const values = fromContent(defaultSiteContent);
      values.services[1] = { ...values.services[1]!, startingPrice: typed };
      const result = validateSiteContent(toInput(values));
      expect(result.ok || errorsByField(result.errors)).toEqual({
        "services.1.startingPrice": "Please enter a whole amount without symbols, e.g. 4500, or leave it empty.",
      });
    },
  );

  it("refuses a currency that is not an ISO 4217 code, an empty one, and a lead time too long", () => {
    for (const currency of ["EURO", "", "€", "XYZ"]) {
      const result = validateSiteContent(toInput({ ...fromContent(defaultSiteContent), currency }));
      expect(result.ok || result.errors).toEqual({
        "business.currency": "Please enter a three-letter currency code such as USD, EUR or GBP.",
      });
    }
    const values = fromContent(defaultSiteContent);
    values.services[0] = { ...values.services[0]!, leadTime: "x".repeat(41) };
    const result = validateSiteContent(toInput(values));
    expect(result.ok || result.errors).toEqual({
      "services.0.leadTime": "Please keep it to 40 characters or fewer.",
    });
  });

  it("lists the new fields in the page's order, each service's four together", () => {
    const order = fieldOrder(fromContent(defaultSiteContent));
    expect(order.slice(order.indexOf("services.0.name"), order.indexOf("services.0.name") + 5)).toEqual([
      "services.0.name",
      "services.0.detail",
      "services.0.startingPrice",
      "services.0.leadTime",
      "services.1.name",
    ]);
    expect(order.slice(-4)).toEqual([
      "business.currency",
      "acknowledgement.enabled",
      "acknowledgement.text",
      "acknowledgement.replyDays",
    ]);
  });

  it("keeps the acknowledgement off until ticked, and its working days a whole number from 1 to 30", () => {
    expect(defaultSiteContent.acknowledgement).toMatchObject({ enabled: false, replyDays: 3 });
    const values = fromContent(defaultSiteContent);
    const ticked = new FormData();
    ticked.set("acknowledgement.enabled", "on");
    expect(fromForm(ticked).acknowledge).toBe(true);
    expect(fromForm(new FormData()).acknowledge).toBe(false);
    for (const days of ["0", "31", "2.5", "3 days", "", "0x3"]) {
      const result = validateSiteContent(toInput({ ...values, replyDays: days }));
      expect(result.ok || errorsByField(result.errors)).toEqual({
        "acknowledgement.replyDays": "Please enter a whole number of working days from 1 to 30.",
      });
    }
    const fine = validateSiteContent(
      toInput({ ...values, acknowledge: true, replyDays: " 5 ", acknowledgementText: "Thanks!\nWithin {days} days." }),
    );
    expect(fine.ok && fine.content.acknowledgement).toEqual({
      enabled: true,
      text: "Thanks!\nWithin {days} days.",
      replyDays: 5,
    });
    const tagged = validateSiteContent(toInput({ ...values, acknowledgementText: "<a href=x>hi</a>" }));
    expect(tagged.ok || tagged.errors).toEqual({
      "acknowledgement.text": "Text only: please remove the HTML tag (the page shows text as written).",
    });
  });
});
