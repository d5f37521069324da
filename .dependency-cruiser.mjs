/**
 * The import graph's rules, checked by `npm run lint` (depcruise): no circle between modules or between folders, and
 * every module of app/ on a floor, importing only what stands on its own floor or below. From the ground up:
 *
 *   1. text/, wording/, log.server.ts,     plain words and helpers; they import nothing of the app
 *      background-loop.server.ts,
 *      scratch.server.ts
 *   2. http/, pages/, store/               requests, finished documents, the database
 *   3. config.server.ts, config/, photos/, the environment's settings; checking and encoding photos and
 *      video/                              video clips
^ *   4. site-services.server.ts             the interface of what the server hands loaders and actions
 *   5. enquiry/, owner/                    the contact form, and the owner area's logins; neither imports the other
 *   6. site-content/                       what the owner edits on the Site page (its preview asks owner/ for a login)
 *   7. notify/, components/, entry.*.tsx   notifications; the pages' pieces; the document's entry points
 *   8. routes/, root.tsx                   what Remix loads; nothing imports them
 *
 * server/ stands above all of app/ (it starts the process and builds the services); app/ never imports it. A new
 * folder of app/ has to be given a floor here before it can import or be imported (rule `every-module-on-a-floor`).
 */
const ground = "text/|wording/|log[.]server[.]ts$|background-loop[.]server[.]ts$|scratch[.]server[.]ts$";
const second = `${ground}|http/|pages/|store/`;
const third = `${second}|config[.]server[.]ts$|config/|photos/|video/`;
const fourth = `${third}|site-services[.]server[.]ts$`;
const floors = `${fourth}|enquiry/|owner/|site-content/|notify/|components/|entry[.](client|server)[.]tsx$|routes/|root[.]tsx$|tailwind[.]css$`;

/** A rule that keeps the modules matched by `from` off everything in app/ but `allowed` (a list of paths under app/). */
const standsOn = (name, comment, from, allowed) => ({
  name,
  comment,
  severity: "error",
  from: { path: `^app/(${from})` },
  to: { path: "^app/", pathNot: `^app/(${allowed})` },
});

export default {
  forbidden: [
    { name: "no-circular", severity: "error", from: {}, to: { circular: true } },
    {
      name: "no-circular-folders",
      comment: "two folders that import each other are one tangle: one of them has to sit below the other",
      severity: "error",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
    {
      name: "app-never-imports-server",
      comment:
        "server/ runs the process and hands the app its services through the load context: the app never reaches up to it",
      severity: "error",
      from: { path: "^app/" },
      to: { path: "^server/" },
    },
    {
      name: "every-module-on-a-floor",
      comment: "a module of app/ outside every floor below is checked by no other rule: give its folder a floor first",
      severity: "error",
      from: { path: "^app/", pathNot: `^app/(${floors})` },
      to: {},
    },
    {
      name: "nothing-imports-an-unplaced-module",
      comment: "the other side of every-module-on-a-floor: a module of app/ with no floor is imported by nobody",
      severity: "error",
      from: {},
      to: { path: "^app/", pathNot: `^app/(${floors})` },
    },
    standsOn(
      "ground-floor-imports-nothing",
      "the words, the text helpers and the logger are what everything else stands on",
      ground,
      ground,
    ),
    standsOn(
      "http-pages-store-on-the-ground",
      "requests, finished documents and the database know nothing of what the site does with them",
      "http/|pages/|store/",
      second,
    ),
    {
      name: "http-pages-store-apart",
      comment: "the three helpers of the second floor are independent of one another",
      severity: "error",
      from: { path: "^app/(http|pages|store)/" },
      to: { path: "^app/(http|pages|store)/", pathNot: "^app/$1/" },
    },
    standsOn(
      "config-and-photos-below-the-services",
      "the settings and the photos' and clips' checks are used by the services and the site, never the other way round",
      "config[.]server[.]ts$|config/|photos/|video/",
      third,
    ),
    standsOn(
      "services-below-the-site",
      "the services are what the server hands the app's capabilities: they cannot name those modules back",
      "site-services[.]server[.]ts$",
      fourth,
    ),
    standsOn(
      "enquiry-and-owner-side-by-side",
      "the contact form and the owner area's logins share only what stands below them",
      "enquiry/|owner/",
      `${fourth}|$1`,
    ),
    standsOn(
      "site-content-below-its-readers",
      "the owner's content is read by notifications, components and pages: it does not import them",
      "site-content/",
      `${fourth}|enquiry/|owner/|site-content/`,
    ),
    {
      name: "notify-components-entries-below-the-routes",
      comment: "notifications, the pages' pieces and the document's entry points are used by routes, never the reverse",
      severity: "error",
      from: { path: "^app/(notify/|components/|entry[.])" },
      to: { path: "^app/(routes/|root[.]tsx$)" },
    },
    {
      name: "notify-is-not-a-page",
      comment: "notifications are sent by the server's loops: they use no component or entry point of the pages",
      severity: "error",
      from: { path: "^app/notify/" },
      to: { path: "^app/(components/|entry[.])" },
    },
    {
      name: "routes-are-the-top",
      comment: "nothing imports a route module or the root: Remix finds them",
      severity: "error",
      from: { pathNot: "^app/routes/" },
      to: { path: "^app/(routes/|root[.]tsx$)" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|build|public|test-results)/|[.]test[.]ts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
