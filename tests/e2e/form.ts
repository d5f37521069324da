import type { Page } from "@playwright/test";
import { contactForm } from "../../app/wording";
import { enquiryFields, type Enquiry } from "../../app/enquiry/fields";
import { expect } from "./fixtures";

/** The contact form as a visitor uses it: by its labels and its button. */

export const fields = (page: Page) => ({
  name: page.getByLabel(enquiryFields.name.label),
  email: page.getByLabel(enquiryFields.email.label),
  message: page.getByLabel(enquiryFields.message.label),
  security: page.getByLabel(enquiryFields.security.label),
});

export async function fill(page: Page, values: Enquiry) {
  const inputs = fields(page);
  for (const key of Object.keys(values) as (keyof Enquiry)[]) await inputs[key].fill(values[key]);
}

export async function expectValues(page: Page, values: Enquiry) {
  const inputs = fields(page);
  for (const key of Object.keys(values) as (keyof Enquiry)[]) await expect(inputs[key]).toHaveValue(values[key]);
}

export const status = (page: Page) => page.getByRole("status");
export const send = (page: Page) => page.getByRole("button", { name: contactForm.submitLabel }).click();
