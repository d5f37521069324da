import { z } from "zod";
import { enquiryErrors } from "~/wording";
import { enquiryFields, type Enquiry, type EnquiryFieldName } from "~/enquiry/fields";
import type { ApiError } from "~/enquiry/api-answer";
import { withoutControls } from "~/text/safety";

function text(field: EnquiryFieldName) {
  const { maxLength } = enquiryFields[field];
  return z
    .string(enquiryErrors.required[field])
    .overwrite(withoutControls)
    .trim()
    .min(1, enquiryErrors.required[field])
    .max(maxLength, enquiryErrors.tooLong(maxLength));
}

/** The server's copy of the form's rules: all four required (after trimming), e-mail shape, length limits. */
const enquirySchema = z.object({
  name: text("name"),
  email: text("email").pipe(z.email(enquiryErrors.invalidEmail)),
  message: text("message"),
  security: text("security"),
});

/** A v1 line, checked by the same rules as a new enquiry (no captcha then); a problem spelled out, or null. */
export function importProblem(input: unknown): string | null {
  const result = enquirySchema.omit({ security: true }).safeParse(input);
  if (result.success) return null;
  const issue = result.error.issues[0]!;
  return `${String(issue.path[0] ?? "line")}: ${issue.message}`;
}

export type Validation = { ok: true; enquiry: Enquiry } | { ok: false; errors: ApiError[] };

/** Validates untrusted input; problems come back as errors in the upstream's own {title, detail} shape. */
export function validateEnquiry(input: unknown): Validation {
  const result = enquirySchema.safeParse(input);
  if (result.success) return { ok: true, enquiry: result.data };
  const seen = new Set<string>();
  const errors: ApiError[] = [];
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    const key = typeof field === "string" && field in enquiryFields ? (field as EnquiryFieldName) : null;
    if (key === null) {
      errors.push(enquiryErrors.unreadableFields);
      break;
    }
    if (seen.has(key)) continue; // one message per field is enough
    seen.add(key);
    errors.push({ title: enquiryFields[key].title, detail: issue.message });
  }
  return { ok: false, errors };
}
