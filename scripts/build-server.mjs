// Bundles the server (server/) into build/server/: index.js (npm start) and cli.js (npm run inbox). npm
// packages stay external (node_modules is there at run time); the app's modules (~/...) are bundled in. Each entry
// checks the Node.js version before the rest of its code is loaded (a separate chunk).
import { rmSync } from "node:fs";
import { build } from "esbuild";

// Chunk names carry content hashes: last build's chunks would otherwise stay beside the new ones.
rmSync("build/server", { recursive: true, force: true });

await build({
  entryPoints: { index: "server/index.ts", cli: "server/cli/index.ts" },
  outdir: "build/server",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node24",
  packages: "external",
  alias: { "~": "./app" },
  sourcemap: true,
  logLevel: "warning",
});
