// `npm run inbox` (node build/server/cli.js): the operator's command for the embedded inbox, through the same store
// and DATABASE_URL as the server. It loads neither React nor Remix.
import * as nodeModule from "node:module";
import { requireNode24 } from "../node-version";

requireNode24("npm run inbox");
process.env.NODE_ENV ??= "production";
// As the server does (server/index.ts): compiled modules cached in the temporary directory.
nodeModule.enableCompileCache();
await import("./main");
