import type { ActionFunction, ServerBuild } from "@remix-run/node";
import { admitPost } from "~/http/admit.server";
import { bodyCapFor, readsOwnBody, takesJson } from "~/http/body-caps";

/**
 * Every route's action runs behind admitPost: the cross-site rule, its body cap (app/http/body-caps.ts) and a body of
 * a type it can read. Wrapped
 * here, once for the whole route table, so that a new route cannot forget either; tests/integration/post-guard.test.ts
 * walks the same table.
 */
export function guardActions(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const action = route.module.action;
    if (!action) {
      routes[id] = route;
      continue;
    }
    const maxBytes = bodyCapFor(id);
    const options = { readsOwnBody: readsOwnBody.has(id), json: takesJson.has(id) };
    const guarded: ActionFunction = async (args) =>
      action({ ...args, request: await admitPost(args.request, maxBytes, options) });
    routes[id] = { ...route, module: { ...route.module, action: guarded } };
  }
  return { ...build, routes };
}
