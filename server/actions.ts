import type { ActionFunction, ServerBuild } from "@remix-run/node";
import { refusals } from "~/wording";
import { admitPost } from "~/http/admit.server";
import { discardBody } from "~/http/body.server";
import { bodyCapOf } from "~/http/body-cap";

/**
 * Every route's action runs behind admitPost: the cross-site rule, its body cap (the route's `bodyCap` export, or the
 * default: app/http/body-cap.ts) and a body of a type it can read. Wrapped
 * here, once for the whole route table, so that a new route cannot forget either; tests/integration/post-guard.test.ts
 * walks the same table.
 */
export function guardActions(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const action = route.module.action;
    if (!action) {
      // A post where nothing takes one: 405 with a plain message (Remix's own answer was its developer message on a page, or
      // {"message":"Unexpected Server Error"} from a resource route, and an error in the log).
      routes[id] = { ...route, module: { ...route.module, action: refuseMethod } };
      continue;
    }
    const { maxBytes, ...options } = bodyCapOf(route.module);
    const guarded: ActionFunction = async (args) =>
      action({ ...args, request: await admitPost(args.request, maxBytes, options) });
    routes[id] = { ...route, module: { ...route.module, action: guarded } };
  }
  return { ...build, routes };
}

/** Thrown, so that a page shows it through its error boundary (as admitPost's refusals) and a resource route sends it. */
const refuseMethod: ActionFunction = ({ request }) => {
  discardBody(request);
  throw new Response(refusals.methodNotAllowed, {
    status: 405,
    headers: { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
};
