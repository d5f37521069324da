import { runInboxCommand } from "./inbox";

// Quietly stop when the reader goes away (e.g. `npm run inbox | head`).
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});
process.exitCode = await runInboxCommand(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
