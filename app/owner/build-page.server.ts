import type { AppLoadContext } from "@remix-run/node";
import { buildPageCopy } from "~/wording/build-page";
import type { BodyCap } from "~/http/body-cap";
import { photoLimits } from "~/photos/limits";
import { problemWords } from "~/photos/problem-words";
import { PhotosBusy } from "~/photos/turns.server";
import { storeReceived } from "~/photos/upload.server";
import { receiveSeveral } from "~/photos/several-uploads.server";
import { buildUpdateViews, type BuildUpdateView } from "~/photos/build-photos.server";
import { buildPhotoKey } from "~/store/build-pages.server";
import type { BuildPhoto } from "~/store/build-pages.types";
import { wonStages, type Stage } from "~/store/pipeline.types";
import type { InboxStore } from "~/store/store.types";
import { requireRecentFactor, type OperatorSession } from "~/owner/gate.server";
import { stepUpReturn } from "~/owner/step-up";
import { buildPageUrl, composeBuildUpdateMail } from "~/owner/build-update-mail";

/**
 * The owner's side of the customer's build page (docs/inbox.md, "The customer's build page"): share it (a private
 * address, behind step-up like the export), revoke it, and post progress updates with up to six photos through the
 * photo pipeline (checked like every upload, encoded in the background; encoded files carry no location or camera
 * data). The e-mail to the customer is queued by the customer-mail outbox (see postUpdate).
 */

const words = buildPageCopy.owner;

/** The longest update's text. */
export const updateMaxLength = 5000;
/** Photos per update. */
export const updatePhotosMax = 6;
/** Six photos at their limit and the form's text (docs/security.md, "Request bodies"). */
export const updateBodyCap: BodyCap = {
  maxBytes: updatePhotosMax * photoLimits.maxBytes + 64 * 1024,
  readsOwnBody: true,
};

/** The intents of the enquiry page's form that this module answers. */
export const buildIntents = ["share-build", "revoke-build"] as const;
export type BuildIntent = (typeof buildIntents)[number];
export const isBuildIntent = (intent: string): intent is BuildIntent =>
  (buildIntents as readonly string[]).includes(intent);

/** What the enquiry page shows in its Build page section. */
export interface BuildPageSectionData {
  canShare: boolean;
  /** E-mail is set up (SMTP_URL, NOTIFY_EMAIL_FROM): "E-mail the customer" is offered. */
  canEmail: boolean;
  link: { url: string; revoked: boolean; endsAt: string | null; ended: boolean } | null;
  updates: BuildUpdateView[];
}

export async function buildPageSection(
  store: InboxStore,
  enquiryId: string,
  stage: Stage,
  { publicUrl, canEmail }: { publicUrl: string; canEmail: boolean },
  now = new Date(),
): Promise<BuildPageSectionData> {
  const link = await store.buildPageLink(enquiryId);
  const updates = await store.buildUpdates(enquiryId);
  const url = link ? buildPageUrl(publicUrl, link.token) : null;
  return {
    canShare: wonStages.includes(stage),
    canEmail,
    link:
      link && url
        ? {
            url,
            revoked: link.revokedAt !== null,
            endsAt: link.endsAt?.toISOString() ?? null,
            ended: link.endsAt !== null && link.endsAt.getTime() <= now.getTime(),
          }
        : null,
    // The owner sees the photos' states only (the customer's page shows them under its own address).
    updates: await buildUpdateViews(store, updates, link && url ? `/build/${link.token}/photo/` : "/"),
  };
}

export type BuildAnswer = { done: string } | { error: string; status: number } | { notFound: true };

/** Share build page / Revoke, from the enquiry page's form: both behind step-up, like the export. */
export async function buildPageAction(
  intent: BuildIntent,
  enquiryId: string,
  session: OperatorSession,
): Promise<BuildAnswer> {
  const { store, operator } = session;
  await requireRecentFactor(session, stepUpReturn.buildPage(enquiryId));
  if (intent === "share-build") {
    const shared = await store.shareBuildPage(enquiryId, operator.email);
    if (!shared.ok) return shared.refusal === "stage" ? { error: words.errors.stage, status: 409 } : { notFound: true };
    return { done: "build-shared" };
  }
  if (!(await store.getEnquiry(enquiryId))) return { notFound: true };
  await store.revokeBuildPage(enquiryId, operator.email);
  return { done: "build-revoked" };
}

export type UpdateOutcome =
  | { ok: true }
  | { ok: false; status: number; values: { body: string; email: boolean }; error: string; headers?: HeadersInit };

/**
 * Post update: the text and up to six photos in one multipart body, each photo checked and stored in the photo turn,
 * its rendition asked for (its own shape; the key marks it as a build photo, never served at /photos/).
 *
 * The e-mail: with "E-mail the customer" ticked, the update is stored with `emailed = 1`; the customer-mail outbox
 * gets composeBuildUpdateMail (app/owner/build-update-mail.ts) with the link, queued with the update.
 */
export async function postUpdate(
  request: Request,
  enquiryId: string,
  { store, operator }: OperatorSession,
  context: AppLoadContext,
): Promise<UpdateOutcome> {
  const received = await receiveSeveral(request, updateBodyCap.maxBytes, {
    file: "photos",
    maxFiles: updatePhotosMax,
    maxFileBytes: photoLimits.maxBytes,
    fields: ["body", "email"],
    fieldBytes: updateMaxLength * 4 + 16,
  });
  const body = received.fields.body.replace(/\r\n?/g, "\n").trim();
  const values = { body: received.fields.body, email: received.fields.email === "1" };
  const refuse = (error: string, status: number, headers?: HeadersInit): UpdateOutcome => ({
    ok: false,
    status,
    values,
    error,
    headers,
  });
  if (!received.ok) {
    if (received.problem === "tooManyFiles") return refuse(words.errors.tooManyPhotos(updatePhotosMax), 400);
    return refuse(
      problemWords(received.problem),
      received.status,
      received.problem === "busy" ? { "Retry-After": "30" } : undefined,
    );
  }
  const { files } = received;
  try {
    const enquiry = await store.getEnquiry(enquiryId);
    if (!enquiry) return refuse(words.errors.notShared, 404);
    const link = await store.buildPageLink(enquiryId);
    if (!link || link.revokedAt !== null) return refuse(words.errors.notShared, 409);
    if ([...body].length > updateMaxLength) return refuse(words.errors.tooLong(updateMaxLength), 400);
    if (body === "" && files.length === 0) return refuse(words.errors.emptyUpdate, 400);
    const sender = context.services.config.notify?.email;
    if (values.email && !sender) return refuse(words.errors.noEmail, 409);
    const photos: BuildPhoto[] = [];
    for (const file of files) {
      const stored = await storeReceived(store, file, { uploadedBy: operator.email });
      if (!stored.ok) return refuse(`${file.fileName}: ${problemWords(stored.problem, stored.cost)}`, stored.status);
      photos.push({ upload: stored.id, key: buildPhotoKey(stored.id) });
    }
    for (const photo of photos) await store.requestRendition(photo.key, photo.upload, "poster", { x: 0.5, y: 0.5 });
    // "E-mail the customer": "New photos of your build" with the page's link, queued with the update.
    const mail = values.email
      ? composeBuildUpdateMail({
          customerName: enquiry.name,
          businessName: context.site.content.business.name,
          buildPageUrl: buildPageUrl(context.services.config.publicUrl, link.token),
          body,
        })
      : null;
    const update = await store.postBuildUpdate(enquiryId, {
      author: operator.email,
      body,
      photos,
      mail: mail && sender ? { subject: mail.subject, body: mail.text, fromAddress: sender.from } : null,
    });
    if (!update) return refuse(words.errors.notShared, 404);
    if (photos.length > 0) context.services.wakePhotoEncoder();
    if (update.emailed) context.services.wakeCustomerMail?.();
    return { ok: true };
  } catch (error) {
    if (error instanceof PhotosBusy) return refuse(problemWords("busy"), 503, { "Retry-After": "30" });
    throw error;
  } finally {
    await files[0]?.discard();
  }
}
