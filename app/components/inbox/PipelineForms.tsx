import { Form } from "@remix-run/react";
import { buttonClass, quietButtonClass } from "~/components/inbox/InboxShell";
import { ErrorSummary } from "~/components/inbox/form/ErrorSummary";
import { Field, fieldInputClass } from "~/components/inbox/form/Field";
import { TextField } from "~/components/inbox/form/TextField";
import { plainAmount } from "~/owner/money";
import type { PipelineRefusal } from "~/owner/pipeline-actions.server";
import { lostReasons, stages, type Commission } from "~/store/pipeline.types";
import { pipelineCopy } from "~/wording/pipeline";

const words = pipelineCopy.form;

type StageValues = Extract<PipelineRefusal, { form: "stage" }>["values"];

/** The form's starting values: what was typed when a save was refused, else the enquiry as it is. */
function startingValues(commission: Commission, currency: string): StageValues {
  const amount = (minor: number | null) => (minor === null ? "" : plainAmount(minor, currency));
  return {
    stage: commission.stage,
    lostReason: commission.lostReason ?? "",
    quoteAmount: amount(commission.quoteAmount),
    quoteValidUntil: commission.quoteValidUntil ?? "",
    depositAmount: amount(commission.depositAmount),
    neededBy: commission.neededBy ?? "",
    service: commission.service ?? "",
    revision: String(commission.revision),
  };
}

/**
 * "Stage" and "Save stage": every field of every stage in one plain form (no script decides what shows), the server
 * saying which a stage needs. The revision it was loaded at goes with it: a change saved by someone else meanwhile
 * refuses this one, and what was typed stays in the form.
 */
export function StageForm({
  commission,
  currency,
  services,
  refusal,
}: {
  commission: Commission;
  currency: string;
  services: string[];
  refusal: Extract<PipelineRefusal, { form: "stage" }> | null;
}) {
  const values = refusal?.values ?? startingValues(commission, currency);
  const errors = refusal?.errors ?? {};
  // The service it has stays choosable after the owner renamed or removed it on the Site page.
  const choices = values.service && !services.includes(values.service) ? [...services, values.service] : services;
  const stale = errors.revision;
  return (
    <section aria-labelledby="stage-heading" className="mt-8 rounded-xl border border-night-600 bg-night-800/70 p-5">
      <h2 id="stage-heading" className="font-display text-2xl font-bold text-bone-50">
        {words.heading}
      </h2>
      {/* A refusal re-renders the form with what was typed: the key makes React take the new starting values. */}
      <Form method="post" noValidate key={refusal ? `refused-${commission.revision}` : `at-${commission.revision}`}>
        <input type="hidden" name="intent" value="stage" />
        {/* After a stale refusal the form is for the enquiry as it is now: a second press replaces the other change. */}
        <input type="hidden" name="revision" value={String(commission.revision)} />
        <ErrorSummary
          className="mt-3"
          lines={[stale ?? (Object.keys(errors).length > 0 ? words.errors.summary : null)]}
          focusKey={JSON.stringify(errors)}
        />
        <div className="mt-3 grid gap-4 md:grid-cols-2">
          <Field id="stage" label={words.stage} error={errors.stage}>
            {(control) => (
              <select
                {...control}
                name="stage"
                defaultValue={values.stage}
                className={fieldInputClass(Boolean(errors.stage))}
              >
                {stages.map((stage) => (
                  <option key={stage} value={stage}>
                    {pipelineCopy.stages[stage]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="stage-lost-reason" label={words.lostReason} error={errors.lostReason}>
            {(control) => (
              <select
                {...control}
                name="lostReason"
                defaultValue={values.lostReason}
                className={fieldInputClass(Boolean(errors.lostReason))}
              >
                <option value="">{words.lostReasonNone}</option>
                {lostReasons.map((reason) => (
                  <option key={reason} value={reason}>
                    {pipelineCopy.lostReasons[reason]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <TextField
            id="stage-quote-amount"
            name="quoteAmount"
            label={words.quoteAmount}
            hint={words.quoteAmountHint(currency)}
            value={values.quoteAmount}
            error={errors.quoteAmount}
            inputMode="decimal"
            maxLength={20}
          />
          <TextField
            id="stage-quote-valid"
            name="quoteValidUntil"
            label={`${words.quoteValidUntil} ${words.optional}`}
            hint={words.dateHint}
            type="date"
            value={values.quoteValidUntil}
            error={errors.quoteValidUntil}
          />
          <TextField
            id="stage-deposit-amount"
            name="depositAmount"
            label={words.depositAmount}
            hint={words.quoteAmountHint(currency)}
            value={values.depositAmount}
            error={errors.depositAmount}
            inputMode="decimal"
            maxLength={20}
          />
          <TextField
            id="stage-needed-by"
            name="neededBy"
            label={`${words.neededBy} ${words.optional}`}
            hint={words.dateHint}
            type="date"
            value={values.neededBy}
            error={errors.neededBy}
          />
          <Field id="stage-service" label={`${words.service} ${words.optional}`} error={errors.service}>
            {(control) => (
              <select
                {...control}
                name="service"
                defaultValue={values.service}
                className={fieldInputClass(Boolean(errors.service))}
              >
                <option value="">{words.serviceNone}</option>
                {choices.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <button type="submit" className={`${buttonClass} mt-4`}>
          {words.save}
        </button>
      </Form>
    </section>
  );
}

/** "Add note": a private line in the timeline; what was typed stays when it is refused. */
export function NoteForm({ refusal }: { refusal: Extract<PipelineRefusal, { form: "note" }> | null }) {
  const note = pipelineCopy.note;
  return (
    <Form method="post" noValidate className="mt-4" key={refusal ? "refused" : "note"}>
      <input type="hidden" name="intent" value="note" />
      <TextField
        id="note"
        name="note"
        label={note.heading}
        hint={note.hint}
        value={refusal?.note ?? ""}
        error={refusal?.error}
        rows={3}
      />
      <button type="submit" className={`${quietButtonClass} mt-3`}>
        {note.submit}
      </button>
    </Form>
  );
}
