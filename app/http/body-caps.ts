/**
 * The most a post may carry, per route (its id in the build's route table, e.g. "routes/inbox.login"). Every action's
 * body is read under its cap before the action runs (app/http/admit.server.ts, wired for every route in
 * server/actions.ts), with or without a Content-Length, and a larger one is a 413 in words.
 */

/** Every form and the JSON API: four full enquiry fields, or a login, fit many times over. */
export const defaultBodyCap = 64 * 1024;

export const bodyCaps: Readonly<Record<string, number>> = {
  // The Site page: every field of the site's content at its limit, in any script (a character can take 12 bytes
  // form-encoded), fits.
  "routes/inbox.site": 256 * 1024,
  // The Photos page: one photo at its limit (photoLimits.maxBytes) and the form's few short fields (docs/security.md, "Request bodies"). It
  // streams its body through the multipart parser under this cap itself (readsOwnBody below).
  "routes/inbox.site_.photos": 25 * 1024 * 1024 + 64 * 1024,
};

export const bodyCapFor = (routeId: string): number => bodyCaps[routeId] ?? defaultBodyCap;

/**
 * Routes that read their body under its cap themselves (app/enquiry/accept.server.ts, app/http/form.server.ts, the
 * photo upload's app/photos/upload.server.ts), so
 * that a refusal comes in their own form: the contact page with its status line and the form again, the JSON API's
 * errors list (and a 415 for the wrong media type before any size), the login page with its form and the reason. Their body is not read for them first; tests/integration/post-guard.test.ts holds
 * them to the cap like every other route.
 */
export const readsOwnBody: ReadonlySet<string> = new Set([
  "routes/contact",
  "routes/api.site.save-contact",
  "routes/inbox.login",
  "routes/inbox.site_.photos",
]);

/** Routes whose action takes JSON, not a form (the passkeys' exchange): admitPost checks the media type for them. */
export const takesJson: ReadonlySet<string> = new Set(["routes/inbox.passkey"]);
