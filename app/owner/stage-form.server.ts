import { z } from "zod";
import { parseAmount } from "~/owner/money";
import { lostReasons, stages, type StageChange } from "~/store/pipeline.types";
import { pipelineCopy } from "~/wording/pipeline";

/**
 * The enquiry page's "Save stage" and "Add note" forms: what was typed, checked in one schema per form. A refusal
 * gives each field's message and keeps what was typed, so nothing is lost.
 */

const errors = pipelineCopy.form.errors;

/** A note's longest text. */
export const noteMaxLength = 5_000;

/** The stage form's fields as typed (what the page shows again after a refusal). */
export interface StageFormValues {
  stage: string;
  lostReason: string;
  quoteAmount: string;
  quoteValidUntil: string;
  depositAmount: string;
  neededBy: string;
  service: string;
  revision: string;
}

export const stageFormValues = (form: FormData): StageFormValues => {
  const text = (name: string) => String(form.get(name) ?? "").slice(0, 200);
  return {
    stage: text("stage"),
    lostReason: text("lostReason"),
    quoteAmount: text("quoteAmount"),
    quoteValidUntil: text("quoteValidUntil"),
    depositAmount: text("depositAmount"),
    neededBy: text("neededBy"),
    service: text("service"),
    revision: text("revision"),
  };
};

/** A calendar day as typed in a date field (YYYY-MM-DD) that exists; empty is none. */
const day = z
  .string()
  .trim()
  .refine((value) => {
    if (value === "") return true;
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (!match) return false;
    const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
    return date.toISOString().slice(0, 10) === value;
  }, errors.date)
  .transform((value) => value || null);

export type StageFormResult =
  | { ok: true; change: StageChange; revision: number }
  | { ok: false; errors: Partial<Record<keyof StageFormValues, string>> };

/** Checks the typed stage form against the site's services and currency. */
export function readStageForm(
  values: StageFormValues,
  { services, currency }: { services: readonly string[]; currency: string },
): StageFormResult {
  const amount = (message: string) =>
    z.string().transform((text, context) => {
      const parsed = parseAmount(text, currency);
      if (parsed === "invalid") {
        context.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return parsed;
    });
  const schema = z.object({
    stage: z.enum(stages, { message: errors.stage }),
    lostReason: z.union([z.literal(""), z.enum(lostReasons)], { message: errors.lostReason }),
    quoteAmount: amount(errors.amount),
    quoteValidUntil: day,
    depositAmount: amount(errors.amount),
    neededBy: day,
    service: z
      .string()
      .refine((value) => value === "" || services.includes(value), errors.service)
      .transform((value) => value || null),
    revision: z.coerce.number().int().min(0),
  });
  // What a stage needs, checked from what was typed, so it is said beside any other refusal.
  const needs: Partial<Record<keyof StageFormValues, string>> = {};
  if (values.stage === "lost" && values.lostReason === "") needs.lostReason = errors.lostReason;
  if (values.stage === "quoted" && values.quoteAmount.trim() === "") needs.quoteAmount = errors.quoteRequired;
  if (values.stage === "deposit" && values.depositAmount.trim() === "") needs.depositAmount = errors.depositRequired;
  const parsed = schema.safeParse(values);
  if (!parsed.success || Object.keys(needs).length > 0) {
    const found = { ...needs };
    for (const issue of parsed.error?.issues ?? []) {
      const field = issue.path[0] as keyof StageFormValues;
      found[field] ??= field === "revision" ? errors.stale : issue.message;
    }
    return { ok: false, errors: found };
  }
  const form = parsed.data;
  return {
    ok: true,
    revision: form.revision,
    change: {
      stage: form.stage,
      lostReason: form.stage === "lost" && form.lostReason !== "" ? form.lostReason : null,
      quoteAmount: form.quoteAmount,
      quoteValidUntil: form.quoteValidUntil,
      depositAmount: form.depositAmount,
      neededBy: form.neededBy,
      service: form.service,
    },
  };
}

/** A note's text, or what is wrong with it. */
export function readNote(text: string): { ok: true; text: string } | { ok: false; error: string } {
  const note = text.replace(/\r\n?/g, "\n").trim();
  if (note === "") return { ok: false, error: pipelineCopy.note.empty };
  if (note.length > noteMaxLength) return { ok: false, error: pipelineCopy.note.tooLong(noteMaxLength) };
  return { ok: true, text: note };
}
