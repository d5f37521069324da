// `npm start` (node build/server/index.js): checks the Node.js version, then loads the server.
import * as nodeModule from "node:module";
import { requireNode24 } from "./node-version";

requireNode24("The site's server");
// V8 keeps the compiled modules in the system's temporary directory (or NODE_COMPILE_CACHE): a restarted instance is
// ready about a quarter sooner. Where that directory is not writable it is simply not used. (A namespace import: on
// an older Node.js the version check above must speak first.)
nodeModule.enableCompileCache();
await import("./main");
