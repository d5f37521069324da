import { renderToStaticMarkup } from "react-dom/server";
import { formTokenField, honeypotField } from "~/enquiry/fields";
import { waitlistForm } from "~/wording/waitlist";

/**
 * "Tell me when orders open" as markup made on the server: a plain form that posts to /waitlist, the same with
 * JavaScript on and off. The pages that show it (home, contact, /waitlist) put the markup in as it is, so the form adds
 * no script to them: the home page's script is at its budget (bench/README.md).
 */

export interface WaitlistFormState {
  /** The form token of this page (empty: no token, the spam filter is off or the database is down). */
  formToken: string;
  /** What the visitor typed, shown again beside `error`. */
  email?: string;
  error?: string;
  /** Ids on the page start with this (a page could show the form twice). */
  idPrefix?: string;
}

const inputClass =
  "mt-1 block w-full rounded-md border border-night-600 bg-night-950 px-3 py-2 text-bone-50 placeholder:text-bone-300/60 focus:border-ember-400 focus:outline-none focus:ring-2 focus:ring-ember-400/40";

function WaitlistForm({ formToken, email = "", error, idPrefix = "waitlist" }: WaitlistFormState) {
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <section
      aria-labelledby={id("heading")}
      data-waitlist=""
      className="mt-8 rounded-xl border border-ghoul-400/40 bg-night-800/70 p-5 shadow-[0_0_40px_-20px_rgb(143_209_79_/_0.35)]"
    >
      <h2 id={id("heading")} className="font-display text-2xl font-bold text-bone-50">
        {waitlistForm.heading}
      </h2>
      <p className="mt-2 text-bone-300">{waitlistForm.lead}</p>
      <form method="post" action="/waitlist" className="mt-4" noValidate>
        <label htmlFor={id("email")} className="block font-semibold text-bone-100">
          {waitlistForm.emailLabel}
        </label>
        <div className="mt-1 flex flex-col gap-3">
          <div>
            <input
              id={id("email")}
              name="email"
              type="email"
              autoComplete="email"
              maxLength={254}
              required
              defaultValue={email}
              className={inputClass}
              {...(error ? { "aria-invalid": true, "aria-describedby": id("error") } : {})}
            />
            {error ? (
              <p id={id("error")} className="mt-2 font-semibold text-ember-300" data-waitlist-error="">
                {error}
              </p>
            ) : null}
          </div>
          <button
            type="submit"
            className="rounded-md bg-ember-500 px-5 sm:self-start py-2.5 font-semibold text-night-950 hover:bg-ember-400 focus-visible:outline-offset-4 focus-visible:outline-ember-300"
          >
            {waitlistForm.submitLabel}
          </button>
        </div>
        {/* Bot trap: display:none hides it from people and assistive technology alike. */}
        <div className="hidden">
          <label htmlFor={id("honeypot")}>{waitlistForm.honeypotLabel}</label>
          <input
            id={id("honeypot")}
            type="text"
            name={honeypotField}
            tabIndex={-1}
            autoComplete="off"
            defaultValue=""
          />
        </div>
        {formToken ? <input type="hidden" name={formTokenField} value={formToken} /> : null}
        <p className="mt-3 text-sm text-bone-300">
          {waitlistForm.consent}{" "}
          <a href="/privacy" className="text-bone-100 underline underline-offset-4 hover:text-ember-300">
            {waitlistForm.privacyLink}
          </a>
          .
        </p>
      </form>
    </section>
  );
}

export const waitlistFormMarkup = (state: WaitlistFormState): string =>
  renderToStaticMarkup(<WaitlistForm {...state} />);
