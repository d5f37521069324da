/**
 * The most a post may carry. Every action's body is read under its route's cap before the action runs
 * (app/http/admit.server.ts, wired for every route in server/actions.ts), with or without a Content-Length, and a
 * larger one is a 413 with a plain message. A route whose cap differs from the default says so beside its action, as
 * `export const bodyCap`; the server reads it from the route table, so a route without one still gets the default.
 */

/** Every form and the JSON API: four full enquiry fields, or a login, fit many times over. */
export const defaultBodyCap = 64 * 1024;

export interface BodyCap {
  /** The most bytes the body may carry; one more is a 413. */
  maxBytes: number;
  /**
   * The route reads its body under the cap itself, so that a refusal comes in its own form: the contact page with its
   * status line and the form again, the JSON API's errors list (and a 415 for the wrong media type before any size),
   * the login page with its form and the reason. Its body is not read for it first; tests/integration/post-guard.test.ts
   * holds it to the cap like every other route.
   */
  readsOwnBody?: boolean;
  /** The action takes JSON, not a form (the passkeys' exchange): admitPost checks the media type. */
  json?: boolean;
  /**
   * Posts to the route's paths that this matches are taken from any site, unlike every other post: the list's one-click
   * unsubscribe (RFC 8058), which a mail provider posts from its own servers or a webmail page, with no cookie and no
   * form token; it changes only what the secret token in its path names.
   */
  fromAnySite?: RegExp | null;
}

/** A route module's own cap (its `bodyCap` export), or the default for one that has none. */
export function bodyCapOf(routeModule: object): Required<BodyCap> {
  const own = (routeModule as { bodyCap?: BodyCap }).bodyCap;
  return { maxBytes: defaultBodyCap, readsOwnBody: false, json: false, fromAnySite: null, ...own };
}
