import { Form, Link } from "@remix-run/react";
import { contactForm, privacyLinks } from "~/wording";
import {
  aboutField,
  enquiryFields,
  formTokenField,
  honeypotField,
  type EnquiryFieldName,
  type EnquiryValues,
} from "~/enquiry/fields";

const inputClass =
  "mt-2 block w-full rounded-md border border-night-600 bg-night-950 px-3 py-2.5 text-base text-bone-50 placeholder:text-bone-400 focus:border-ember-400 focus:outline-none focus:ring-2 focus:ring-ember-400/60";
const labelClass = "block font-medium text-bone-100";

interface ContactFormProps {
  /** The status line: empty, "Sending...", the thank-you or an error. */
  status: string;
  /** What the visitor typed, shown again after a failed send. */
  values: EnquiryValues;
  busy: boolean;
  /** The signed form token (app/enquiry/form-token.server.ts); empty when none is used. */
  formToken: string;
  /** The project the visitor asks about ("Ask for one like this"): its id, posted, and how the message starts. */
  about?: { id: string; prefill: string } | null;
  /** Where the form posts: /contact, with the project's ?about= so a page shown again without JavaScript keeps it. */
  action?: string;
}

function field(name: EnquiryFieldName) {
  const { maxLength, autoComplete } = enquiryFields[name];
  return { id: `enquiry-${name}`, name, maxLength, autoComplete, required: true };
}

/**
 * The enquiry form. A real POST form: without JavaScript the browser posts it and the server renders the result;
 * with JavaScript Remix submits it in place. Field limits come from app/enquiry/fields.ts.
 */
export function ContactForm({ status, values, busy, formToken, about, action = "/contact" }: ContactFormProps) {
  return (
    <>
      <Form method="post" action={action} className="space-y-5" aria-describedby="enquiry-status">
        <div>
          <label htmlFor="enquiry-name" className={labelClass}>
            {enquiryFields.name.label}
          </label>
          <input {...field("name")} type="text" defaultValue={values.name ?? ""} className={inputClass} />
        </div>
        <div>
          <label htmlFor="enquiry-email" className={labelClass}>
            {enquiryFields.email.label}
          </label>
          <input {...field("email")} type="email" defaultValue={values.email ?? ""} className={inputClass} />
        </div>
        <div>
          <label htmlFor="enquiry-message" className={labelClass}>
            {enquiryFields.message.label}
          </label>
          <textarea
            {...field("message")}
            rows={4}
            defaultValue={values.message ?? about?.prefill ?? ""}
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor="enquiry-security" className={labelClass}>
            {enquiryFields.security.label}
          </label>
          <input {...field("security")} type="text" defaultValue={values.security ?? ""} className={inputClass} />
        </div>
        {/* Bot trap: display:none hides it from people and assistive technology alike. */}
        <div className="hidden">
          <label htmlFor="enquiry-honeypot">{contactForm.honeypotLabel}</label>
          <input
            id="enquiry-honeypot"
            type="text"
            name={honeypotField}
            tabIndex={-1}
            autoComplete="off"
            defaultValue=""
          />
        </div>
        {formToken ? <input type="hidden" name={formTokenField} value={formToken} /> : null}
        {about ? <input type="hidden" name={aboutField} value={about.id} /> : null}
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-ember-500 px-7 py-3 text-lg font-semibold text-night-950 hover:bg-ember-400 focus-visible:outline-offset-4 focus-visible:outline-ember-300 disabled:cursor-wait disabled:opacity-70"
        >
          {contactForm.submitLabel}
        </button>
      </Form>
      <p className="mt-4 text-sm text-bone-300">
        {privacyLinks.underForm}{" "}
        <Link to="/privacy" className="text-bone-100 underline underline-offset-4 hover:text-ember-300">
          {privacyLinks.underFormLink}
        </Link>
        .
      </p>
      <div
        id="enquiry-status"
        role="status"
        className={
          status
            ? "mt-6 rounded-md border border-sky-400/50 border-l-4 border-l-sky-400 bg-sky-950/60 px-4 py-3 text-bone-50"
            : "mt-6"
        }
      >
        {status}
      </div>
    </>
  );
}
