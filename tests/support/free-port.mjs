// The one free-port helper of the tests and the bench (plain JS: the bench imports it without a build).
import { createServer } from "node:net";

/**
 * A port on 127.0.0.1 nobody listens on right now: listen on 0, read the port the kernel gave, close. The short race
 * before the caller binds it is harmless here (each test asks for its own).
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}
