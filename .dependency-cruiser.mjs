/**
 * The import graph's rules, checked by `npm run lint` (depcruise): no circle between modules or between folders, and
 * no arrow back up a floor. From the bottom: the plain helpers (text, http, content, config), then the store, then
 * what the site does with it (enquiry, notify, owner, pages), then the routes and components; the process wing
 * (server/) sits on top, and the app never imports it.
 */
const site = "enquiry|notify|owner|pages|routes|components";
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
      comment: "server/ is the process wing: it lends the app its services through the load context",
      severity: "error",
      from: { path: "^app/" },
      to: { path: "^server/" },
    },
    {
      name: "plain-helpers-stay-plain",
      comment: "text, http, content and config are the bottom floor: they import nothing of the site above them",
      severity: "error",
      from: { path: "^app/(text|http|content|config([.]server|/)|public-url)" },
      to: { path: `^app/(${site}|services[.]server)` },
    },
    {
      name: "store-below-the-site",
      comment: "the store keeps rows; what an enquiry or a login means is decided above it, configured from server/",
      severity: "error",
      from: { path: "^app/store/" },
      to: { path: `^app/(${site}|services[.]server|config([.]server|/))` },
    },
    {
      name: "services-below-the-site",
      comment: "the services are what server/ lends the enquiry and notify code: they cannot name those modules back",
      severity: "error",
      from: { path: "^app/services[.]server" },
      to: { path: "^app/(enquiry|notify|routes|components)" },
    },
    {
      name: "routes-are-the-top",
      comment: "nothing imports a route module: Remix finds them",
      severity: "error",
      from: { pathNot: "^app/routes/" },
      to: { path: "^app/routes/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|build|public|test-results)/|[.]test[.]ts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
