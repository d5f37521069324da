// A block of consecutive free ports on 127.0.0.1 for the end-to-end servers (tests/e2e/servers.ts), found once by
// Playwright's runner; its workers inherit the block through E2E_PORT_BASE. Plain JS: run as a child process, because
// Playwright loads its config synchronously.
import { createServer } from "node:net";
import { pathToFileURL } from "node:url";

/** True when nothing listens on 127.0.0.1:port right now. */
function isFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * The first port of `count` consecutive ports that are all free, below Linux's ephemeral range (32768 and up), where
 * outgoing connections take their local ports. Random starts, so that two runs side by side rarely try the same one.
 * @param {number} count
 * @returns {Promise<number>}
 */
export async function freePortRange(count) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = 10_000 + Math.floor(Math.random() * (32_000 - 10_000 - count));
    let free = true;
    for (let port = base; port < base + count && free; port++) free = await isFree(port);
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free ports found on 127.0.0.1`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.stdout.write(String(await freePortRange(Number(process.argv[2] ?? 1))));
}
