import { describe, expect, it } from "vitest";
import { enquiryFieldNames, enquiryFields, type Enquiry } from "~/enquiry/fields";
import { validateEnquiry } from "~/enquiry/validate.server";

const good: Enquiry = {
  name: "Jane Doe",
  email: "jane@example.com",
  message: "A pneumatic drop-down spider for our porch, please.",
  security: "Freddy",
};

function errorsFor(input: unknown) {
  const result = validateEnquiry(input);
  if (result.ok) throw new Error("expected the input to be refused");
  return result.errors;
}

describe("validateEnquiry", () => {
  it("accepts a good enquiry and returns exactly the four fields", () => {
    const result = validateEnquiry({ ...good, extra: "dropped", [Symbol("x")]: 1 });
    expect(result).toEqual({ ok: true, enquiry: good });
    if (result.ok) expect(Object.keys(result.enquiry).sort()).toEqual([...enquiryFieldNames].sort());
  });

  it("trims every field", () => {
    const result = validateEnquiry({
      name: "  Jane  ",
      email: "\tjane@example.com\n",
      message: "\n Hi \n",
      security: " Freddy ",
    });
    expect(result).toEqual({
      ok: true,
      enquiry: { name: "Jane", email: "jane@example.com", message: "Hi", security: "Freddy" },
    });
  });

  it.each(enquiryFieldNames)("requires %s (missing, empty, or only whitespace)", (field) => {
    for (const value of [undefined, "", "   \n\t "]) {
      const errors = errorsFor({ ...good, [field]: value });
      expect(errors).toEqual([{ title: enquiryFields[field].title, detail: expect.stringMatching(/^Please /) }]);
    }
  });

  it("reports all four when everything is missing, one message per field, in form order, as {title, detail}", () => {
    const errors = errorsFor({});
    expect(errors.map((e) => e.title)).toEqual(enquiryFieldNames.map((f) => enquiryFields[f].title));
    for (const error of errors) {
      expect(Object.keys(error).sort()).toEqual(["detail", "title"]);
      expect(error.detail).toEqual(expect.any(String));
      expect(error.detail.length).toBeGreaterThan(0);
    }
  });

  it("treats a non-string value as missing", () => {
    const errors = errorsFor({ ...good, name: 42, message: ["a"] });
    expect(errors.map((e) => e.title)).toEqual([enquiryFields.name.title, enquiryFields.message.title]);
  });

  it.each(["jane@example.com", "jane.doe+haunt@sub.example.co.uk", "J_D-1@example.org"])(
    "accepts the e-mail %s",
    (email) => {
      expect(validateEnquiry({ ...good, email }).ok).toBe(true);
    },
  );

  it.each(["jane", "jane@", "@example.com", "jane doe@example.com", "jane@@example.com", "jane@example", "jane@.com"])(
    "refuses the e-mail %s with one e-mail message",
    (email) => {
      expect(errorsFor({ ...good, email })).toEqual([
        { title: enquiryFields.email.title, detail: "Please enter a valid e-mail address." },
      ]);
    },
  );

  /** A valid value of exactly `length` characters (for e-mail: a 64-character local part and 63-character labels). */
  function fill(field: (typeof enquiryFieldNames)[number], length: number): string {
    if (field !== "email") return "x".repeat(length);
    const local = "a".repeat(64);
    const tld = ".com";
    const labels = ["b".repeat(63), "c".repeat(63)].join(".");
    return `${local}@${labels}.${"d".repeat(length - local.length - 1 - labels.length - 1 - tld.length)}${tld}`;
  }

  it.each(enquiryFieldNames)("applies the length limit of %s from fields.ts, after trimming", (field) => {
    const { maxLength } = enquiryFields[field];
    expect(fill(field, maxLength)).toHaveLength(maxLength);
    expect(validateEnquiry({ ...good, [field]: `  ${fill(field, maxLength)}  ` }).ok).toBe(true);
    expect(errorsFor({ ...good, [field]: fill(field, maxLength + 1) })).toEqual([
      { title: enquiryFields[field].title, detail: `Please keep it to ${maxLength} characters or fewer.` },
    ]);
  });

  it("gives one message per field even when a field breaks several rules", () => {
    const errors = errorsFor({ ...good, email: `not an address ${"x".repeat(300)}` });
    expect(errors).toHaveLength(1);
    expect(errors[0]!.title).toBe(enquiryFields.email.title);
  });

  it.each([
    ["null", null],
    ["a string", "name=Jane"],
    ["an array", [good]],
    ["a number", 7],
  ])("refuses %s with one general error", (_label, input) => {
    expect(errorsFor(input)).toEqual([{ title: "Enquiry", detail: expect.any(String) }]);
  });
});

describe("control characters", () => {
  it("are dropped from every field before the checks (PostgreSQL refuses NUL), keeping tabs and line breaks", () => {
    const result = validateEnquiry({
      name: "Jane\u0000 Doe\u001b",
      email: "jane@example.com",
      message: "Line\u0000 one\n\tLine two\u007f",
      security: "Freddy",
    });
    expect(result).toEqual({
      ok: true,
      enquiry: { name: "Jane Doe", email: "jane@example.com", message: "Line one\n\tLine two", security: "Freddy" },
    });
    expect(
      validateEnquiry({ name: "\u0000\u0001", email: "jane@example.com", message: "m", security: "Freddy" }).ok,
    ).toBe(false);
  });
});
