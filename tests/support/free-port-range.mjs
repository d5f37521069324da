// A block of consecutive free ports on 127.0.0.1 for the end-to-end servers (tests/e2e/servers.ts), found once by
// Playwright's runner; its workers inherit the block through E2E_PORT_BASE. Plain JS: run as a child process, because
// Playwright loads its config synchronously.
import { createServer } from "node:net";
import { pathToFileURL } from "node:url";

/**
 * True when nothing listens on the port on 127.0.0.1, nor on ::1: a test opens some servers as `localhost`, which
 * Chromium tries on ::1 first. A machine without IPv6 has no ::1 to collide with.
 */
async function isFree(port) {
  return (await canListen(port, "127.0.0.1")) && (await canListen(port, "::1", ["EADDRNOTAVAIL", "EAFNOSUPPORT"]));
}

/** @param {number} port @param {string} host @param {string[]} fine error codes that mean "nothing to collide with" */
function canListen(port, host, fine = []) {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", (/** @type {NodeJS.ErrnoException} */ error) => resolve(fine.includes(error.code ?? "")));
    server.listen(port, host, () => server.close(() => resolve(true)));
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
