// `npm start` (node build/server/index.js): checks the Node.js version, then loads the server.
import { requireNode24 } from "./node-version";

requireNode24("The site's server");
await import("./main");
