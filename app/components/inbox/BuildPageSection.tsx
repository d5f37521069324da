import { Form } from "@remix-run/react";
import { buildPageCopy } from "~/wording/build-page";
import { absoluteTime } from "~/text/time";
import { buttonClass, dangerButtonClass, inputClass } from "~/components/inbox/InboxShell";
import { ButtonForm } from "~/components/inbox/form/ButtonForm";
import { Notice } from "~/components/inbox/form/Notice";

/**
 * The enquiry page's Build page section: Share build page (a private link for the customer, from Deposit paid on),
 * the link in a text field to copy, Revoke, the Post update form (text, up to six photos, "E-mail the customer") and
 * the updates posted. Plain forms: no JavaScript needed.
 */

const words = buildPageCopy.owner;

type PhotoState = { state: "ready" | "pending" | "failed" };

export interface BuildPageSectionProps {
  enquiryId: string;
  canShare: boolean;
  /** E-mail is set up: "E-mail the customer" is offered (else a line saying the link is the owner's to send). */
  canEmail: boolean;
  link: { url: string; revoked: boolean; endsAt: string | null; ended: boolean } | null;
  updates: { id: string; at: string; body: string; emailed: boolean; photos: PhotoState[] }[];
  /** `?done=` after a post here (build-shared, build-revoked, build-posted). */
  done?: string | null;
  /** A refused Share or Revoke. */
  error?: string | null;
  /** A refused post update: its message and what was typed. */
  refused?: { error: string; values: { body: string; email: boolean } } | null;
  photosMax: number;
  textMax: number;
}

const doneWords: Record<string, string> = {
  "build-shared": words.done.shared!,
  "build-revoked": words.done.revoked!,
  "build-posted": words.done.posted!,
};

export function BuildPageSection({
  enquiryId,
  canShare,
  canEmail,
  link,
  updates,
  done,
  error,
  refused,
  photosMax,
  textMax,
}: BuildPageSectionProps) {
  const active = link !== null && !link.revoked && !link.ended;
  return (
    <section id="build-page" aria-labelledby="build-page-heading" className="mt-8">
      <h2 id="build-page-heading" className="font-display text-2xl font-bold text-bone-50">
        {words.heading}
      </h2>
      <p className="mt-1 text-bone-300">{words.intro}</p>
      <Notice className="mt-3">{done ? doneWords[done] : null}</Notice>
      <Notice tone="error" className="mt-3">
        {error}
      </Notice>
      <div className="mt-3 rounded-xl border border-night-600 bg-night-800/70 p-4">
        {active ? (
          <>
            <label htmlFor="build-link" className="block font-semibold text-bone-50">
              {words.linkLabel}
            </label>
            <input
              id="build-link"
              type="text"
              readOnly
              value={link.url}
              className={`${inputClass} mt-2 font-mono text-sm`}
              aria-describedby="build-link-hint"
            />
            <p id="build-link-hint" className="mt-1 text-sm text-bone-300">
              {words.linkHint}
              {link.endsAt ? ` ${words.endsOn(absoluteTime(new Date(link.endsAt)))}` : null}
            </p>
            <ButtonForm fields={{ intent: "revoke-build" }} className="mt-3" buttonClassName={dangerButtonClass}>
              {words.revoke}
            </ButtonForm>
          </>
        ) : (
          <>
            {link?.revoked ? <p className="text-bone-100">{words.revoked}</p> : null}
            {link?.ended && !link.revoked ? <p className="text-bone-100">{words.ended}</p> : null}
            {canShare ? (
              <ButtonForm fields={{ intent: "share-build" }} className="mt-2" buttonClassName={buttonClass}>
                {link ? words.shareAgain : words.share}
              </ButtonForm>
            ) : (
              <p className="text-bone-300">{words.notYet}</p>
            )}
          </>
        )}
      </div>
      {active ? (
        <UpdateForm
          enquiryId={enquiryId}
          refused={refused}
          canEmail={canEmail}
          photosMax={photosMax}
          textMax={textMax}
        />
      ) : null}
      {link ? (
        <>
          <h3 className="mt-6 text-xl font-semibold text-bone-50">{words.updates}</h3>
          {updates.length === 0 ? <p className="mt-2 text-bone-300">{words.noUpdates}</p> : null}
          <ol className="mt-2 grid gap-3">
            {updates.map((update) => (
              <li key={update.id} className="rounded-xl border border-night-600 bg-night-800/70 p-4">
                <p className="text-sm text-bone-300">
                  <time dateTime={update.at}>{absoluteTime(new Date(update.at))}</time>
                  {update.photos.length > 0 ? ` · ${words.photoCount(update.photos.length)}` : null}
                  {update.emailed ? ` · ${words.emailed}` : null}
                </p>
                {update.body ? (
                  <p className="mt-2 whitespace-pre-wrap break-words text-bone-50">{update.body}</p>
                ) : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  );
}

export function UpdateForm({
  enquiryId,
  refused,
  canEmail,
  photosMax,
  textMax,
}: {
  enquiryId: string;
  refused?: BuildPageSectionProps["refused"];
  canEmail: boolean;
  photosMax: number;
  textMax: number;
}) {
  return (
    <Form
      method="post"
      action={`/inbox/${encodeURIComponent(enquiryId)}/updates`}
      encType="multipart/form-data"
      reloadDocument
      aria-labelledby="build-update-heading"
      className="mt-4 rounded-xl border border-night-600 bg-night-800/70 p-4"
    >
      <h3 id="build-update-heading" className="text-xl font-semibold text-bone-50">
        {words.updateHeading}
      </h3>
      <Notice tone="error" className="mt-2">
        {refused?.error}
      </Notice>
      {/* The text comes before the files: a refused upload (even one past the size cap) keeps it. */}
      <label htmlFor="build-update-body" className="mt-3 block font-semibold text-bone-50">
        {words.updateText}
      </label>
      <textarea
        id="build-update-body"
        name="body"
        rows={4}
        maxLength={textMax}
        defaultValue={refused?.values.body ?? ""}
        className={`${inputClass} mt-1`}
      />
      {canEmail ? (
        <label className="mt-3 flex items-center gap-2 text-bone-50">
          <input type="checkbox" name="email" value="1" defaultChecked={refused?.values.email ?? true} />
          {words.emailCustomer}
        </label>
      ) : (
        <p className="mt-3 text-sm text-bone-300">{words.noEmail}</p>
      )}
      <label htmlFor="build-update-photos" className="mt-3 block font-semibold text-bone-50">
        {words.updatePhotos(photosMax)}
      </label>
      <input
        id="build-update-photos"
        name="photos"
        type="file"
        multiple
        accept="image/jpeg,image/png,image/webp,image/avif"
        aria-describedby="build-update-photos-hint"
        className="mt-1 block w-full text-bone-100"
      />
      <p id="build-update-photos-hint" className="mt-1 text-sm text-bone-300">
        {words.updateHint}
      </p>
      <button type="submit" className={`${buttonClass} mt-4`}>
        {words.post}
      </button>
    </Form>
  );
}
