import { Form } from "@remix-run/react";
import { buttonClass, quietButtonClass } from "~/components/inbox/InboxShell";
import { ErrorSummary } from "~/components/inbox/form/ErrorSummary";
import { describedBy, FieldMessages } from "~/components/inbox/form/Field";
import { Notice } from "~/components/inbox/form/Notice";
import { TextField } from "~/components/inbox/form/TextField";
import { siteEditorCopy } from "~/wording/site-editor";
import { fieldHints, fieldLabels, limits, serviceLabels, type FieldPath } from "~/site-content/fields";
import { fieldId, fieldOrder, formFields, serviceField, type SiteFormValues } from "~/site-content/form";

/**
 * The Site page's form: every field of the draft with its label, hint and (after a refused post) its message, tied to
 * it with aria-describedby and aria-invalid; a summary of the problems at the top linking to each field. The server
 * is the one judge of what is valid (noValidate), the same with JavaScript on and off.
 */

const words = siteEditorCopy;
const smallButton =
  "inline-flex items-center rounded-md border border-night-600 bg-night-800 px-3 py-1.5 text-sm font-medium text-bone-100 hover:border-ember-400 hover:text-ember-300 disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:border-night-600 disabled:hover:text-bone-100";

/** A field's label in the summary: its own label, or a service's ("Service 2 name"). */
function labelOf(key: string): string {
  const service = /^services\.(\d+)\.(name|detail|startingPrice|leadTime)$/.exec(key);
  if (service) return serviceLabels[service[2] as keyof typeof serviceLabels](Number(service[1]) + 1);
  return fieldLabels[key as FieldPath] ?? key;
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="mt-6 rounded-xl border border-night-600 bg-night-800/70 p-4 sm:p-5">
      <h2 className="font-display text-xl font-bold text-bone-50">{title}</h2>
      <div className="mt-3 space-y-4">{children}</div>
    </section>
  );
}

export interface SiteFormProps {
  values: SiteFormValues;
  revision: number;
  errors: Record<string, string> | null;
  refusal: string | null;
  note: string | null;
  timeZone: string;
  cdnMinutes: number;
  /** Whether this server sends e-mail at all (else the acknowledgement's setting says it sends nothing). */
  mailConfigured: boolean;
}

export function SiteForm({
  values,
  revision,
  errors,
  refusal,
  note,
  timeZone,
  cdnMinutes,
  mailConfigured,
}: SiteFormProps) {
  const problems = errors
    ? [
        ...fieldOrder(values).filter((key) => errors[key]),
        ...Object.keys(errors).filter((key) => !fieldOrder(values).includes(key)),
      ]
    : [];
  const error = (key: string) => errors?.[key];
  const field = (key: keyof typeof formFields) => ({
    id: fieldId(formFields[key]),
    name: formFields[key],
    label: fieldLabels[formFields[key]],
    value: String(values[key]),
    error: error(formFields[key]),
    hint: fieldHints[formFields[key]],
  });
  const services = values.services;
  const currency = /^[a-z]{3}$/i.test(values.currency.trim()) ? values.currency.trim().toUpperCase() : null;

  return (
    <Form method="post" noValidate className="mt-6" aria-label={words.title}>
      {/* Enter in a field saves the draft: the first submit button is the form's default, so it must not be a move. */}
      <button type="submit" name="intent" value="save" tabIndex={-1} aria-hidden="true" className="sr-only">
        {words.buttons.save}
      </button>
      <input type="hidden" name="revision" value={revision} />

      {/* Drawn afresh after each refused post (the page keys it): the summary takes the reader to why. */}
      <ErrorSummary
        lines={[problems.length > 0 ? words.errors.summary(problems.length) : refusal]}
        problems={problems.map((key) => ({ key, text: `${labelOf(key)}: ${errors![key]}`, field: fieldId(key) }))}
      />
      <Notice tone="success" className="">
        {note}
      </Notice>

      <Section title={words.sections.season}>
        <TextField {...field("year")} inputMode="numeric" maxLength={4} required className="max-w-xs" />
        <div className="flex items-start gap-3">
          <input
            id={fieldId(formFields.ordersOpen)}
            name={formFields.ordersOpen}
            type="checkbox"
            defaultChecked={values.ordersOpen}
            className="mt-1 h-5 w-5 shrink-0 accent-ember-500"
          />
          <label htmlFor={fieldId(formFields.ordersOpen)} className="font-medium text-bone-100">
            {fieldLabels[formFields.ordersOpen]}
          </label>
        </div>
        <TextField
          {...field("closesOn")}
          type="date"
          hint={`${fieldHints["season.closesOn"]} ${words.closesOnWhen(timeZone, cdnMinutes)}`}
          className="max-w-md"
        />
        <TextField {...field("closedLine")} maxLength={limits.closedLine} />
      </Section>

      <Section title={words.sections.home}>
        <TextField {...field("tagline")} maxLength={limits.tagline} required />
        <TextField {...field("ordersNote")} maxLength={limits.ordersNote} rows={3} />
      </Section>

      <Section title={words.sections.services}>
        <fieldset
          id={fieldId("services")}
          aria-describedby={describedBy(
            `${fieldId("services")}-hint`,
            error("services") && `${fieldId("services")}-error`,
          )}
        >
          <legend className="sr-only">{fieldLabels.services}</legend>
          <FieldMessages id={fieldId("services")} hint={words.servicesHint} error={error("services")} />
          <ol className="mt-3 space-y-3">
            {services.map((service, index) => (
              <li key={index} className="rounded-lg border border-night-600 bg-night-950/60 p-3">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 className="font-semibold text-bone-50">{words.service(index + 1)}</h3>
                  <div className="flex flex-wrap gap-2">
                    {(
                      [
                        ["up-service", words.up, index === 0],
                        ["down-service", words.down, index === services.length - 1],
                        ["remove-service", words.remove, services.length <= limits.servicesMin],
                      ] as const
                    ).map(([intent, label, disabled]) => (
                      <button
                        key={intent}
                        type="submit"
                        name="intent"
                        value={`${intent}:${index}`}
                        disabled={disabled}
                        className={smallButton}
                      >
                        <span className="sr-only">{words.servicePrefix(index + 1)}</span>
                        {label}
                      </button>
                    ))}
                  </div>
                </div>
                <div className="mt-2 grid gap-3 md:grid-cols-[2fr_3fr]">
                  <TextField
                    id={fieldId(serviceField(index, "name"))}
                    name={serviceField(index, "name")}
                    label={serviceLabels.name(index + 1)}
                    value={service.name}
                    error={error(serviceField(index, "name"))}
                    maxLength={limits.serviceName}
                    required
                  />
                  <TextField
                    id={fieldId(serviceField(index, "detail"))}
                    name={serviceField(index, "detail")}
                    label={serviceLabels.detail(index + 1)}
                    value={service.detail}
                    error={error(serviceField(index, "detail"))}
                    maxLength={limits.serviceDetail}
                    required
                  />
                </div>
                {/* Bottom-aligned: the inputs stay level when one hint wraps to more lines than the other. */}
                <div className="mt-3 grid items-end gap-3 md:grid-cols-[2fr_3fr]">
                  <TextField
                    id={fieldId(serviceField(index, "startingPrice"))}
                    name={serviceField(index, "startingPrice")}
                    label={serviceLabels.startingPrice(index + 1)}
                    value={service.startingPrice}
                    error={error(serviceField(index, "startingPrice"))}
                    hint={words.startingPriceHint(currency)}
                    inputMode="numeric"
                  />
                  <TextField
                    id={fieldId(serviceField(index, "leadTime"))}
                    name={serviceField(index, "leadTime")}
                    label={serviceLabels.leadTime(index + 1)}
                    value={service.leadTime}
                    error={error(serviceField(index, "leadTime"))}
                    hint={words.leadTimeHint}
                    maxLength={limits.leadTime}
                  />
                </div>
              </li>
            ))}
          </ol>
          <button
            type="submit"
            name="intent"
            value="add-service"
            disabled={services.length >= limits.servicesMax}
            className={`${smallButton} mt-3`}
          >
            {words.addService}
          </button>
        </fieldset>
      </Section>

      <Section title={words.sections.about}>
        <TextField {...field("aboutText")} maxLength={limits.aboutText} rows={12} required />
        <TextField {...field("experienceYears")} inputMode="numeric" maxLength={3} required className="max-w-xs" />
      </Section>

      <Section title={words.sections.contact}>
        <TextField {...field("contactIntro")} maxLength={limits.contactIntro} rows={3} required />
      </Section>

      <Section title={words.sections.business}>
        <TextField {...field("businessName")} maxLength={limits.businessName} required autoComplete="organization" />
        <div className="grid gap-4 md:grid-cols-2">
          <TextField {...field("email")} type="email" maxLength={limits.email} autoComplete="email" />
          <TextField {...field("phone")} type="tel" maxLength={limits.phone} autoComplete="tel" />
        </div>
        <TextField {...field("region")} maxLength={limits.region} />
        <TextField {...field("links")} rows={3} />
        <TextField {...field("currency")} className="max-w-xs" />
      </Section>

      <Section title={words.sections.acknowledgement}>
        <div>
          <div className="flex items-start gap-3">
            <input
              id={fieldId(formFields.acknowledge)}
              name={formFields.acknowledge}
              type="checkbox"
              defaultChecked={values.acknowledge}
              aria-describedby={`${fieldId(formFields.acknowledge)}-hint`}
              className="mt-1 h-5 w-5 shrink-0 accent-ember-500"
            />
            <label htmlFor={fieldId(formFields.acknowledge)} className="font-medium text-bone-100">
              {fieldLabels[formFields.acknowledge]}
            </label>
          </div>
          <FieldMessages
            id={fieldId(formFields.acknowledge)}
            hint={
              mailConfigured
                ? fieldHints[formFields.acknowledge]
                : `${fieldHints[formFields.acknowledge]} ${words.acknowledgementNoMail}`
            }
          />
        </div>
        <TextField {...field("acknowledgementText")} maxLength={limits.acknowledgementText} rows={3} required />
        <TextField {...field("replyDays")} inputMode="numeric" maxLength={2} required className="max-w-xs" />
      </Section>

      <p className="mt-6 text-sm text-bone-300">{words.buttonsHint}</p>
      {/* Kept in reach at the bottom of the window while the owner scrolls a long form (a phone especially). */}
      <div className="sticky bottom-0 z-10 mt-2 border-t border-night-600 bg-night-950 py-3">
        <div className="flex flex-wrap gap-3">
          <button type="submit" name="intent" value="save" className={quietButtonClass}>
            {words.buttons.save}
          </button>
          <button type="submit" name="intent" value="preview" className={quietButtonClass}>
            {words.buttons.preview}
          </button>
          <button type="submit" name="intent" value="publish" className={buttonClass}>
            {words.buttons.publish}
          </button>
        </div>
      </div>
    </Form>
  );
}
