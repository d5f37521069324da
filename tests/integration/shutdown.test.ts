import { randomUUID } from "node:crypto";
import { Agent, request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sentLocation } from "~/enquiry/answers.server";
import { startFakeUpstream } from "../support/fake-upstream.mjs";
import { startSite, waitFor, type SiteServer } from "../support/site-server";
import { enquiry } from "../support/enquiry";
import { pidNamespacePermitted } from "../support/requirements.mjs";

/**
 * docker stop without Docker: the production start command (`node build/server/index.js`) gets SIGTERM from outside
 * while enquiries are in flight. Docker sends SIGKILL 10 s later, and the kernel kills the whole namespace once PID 1
 * exits: whatever was not answered by then is lost. In a container the server is PID 1, and PID 1 gets no default
 * signal action: only a handler of its own stops it. Exit code 0 after draining (not death by the signal, whose exit
 * code would be null) shows that the server's own handler ran, so the tests run everywhere as a plain child process,
 * and again as PID 1 of a new PID namespace where that is permitted (root with CAP_SYS_ADMIN; skipped elsewhere).
 */

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;
let upstream: Upstream;
const sites: SiteServer[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream({ port: 0 });
});
afterAll(async () => {
  await Promise.all(sites.map((site) => site.stop()));
  await upstream?.close();
});

const modes = [
  { where: "a plain child process", pidNamespace: false },
  { where: "PID 1 of a new PID namespace, as in a container", pidNamespace: true },
];
const namespacesPermitted = pidNamespacePermitted();

async function startContainerLike(pidNamespace: boolean): Promise<SiteServer> {
  const site = await startSite({ API_HOST: upstream.origin, API_TIMEOUT_MS: "10000" }, { pidNamespace });
  sites.push(site);
  return site;
}

/** Posts one enquiry carrying the token; resolves with the status, or the error if the connection failed. */
async function postEnquiry(site: SiteServer, token: string): Promise<number | string> {
  const values = enquiry(token);
  try {
    const response = await fetch(`${site.url}/contact`, {
      method: "POST",
      body: new URLSearchParams(values),
      redirect: "manual",
      signal: AbortSignal.timeout(15_000),
    });
    await response.body?.cancel();
    return response.status === 303 && response.headers.get("location") === sentLocation ? 303 : response.status;
  } catch (error) {
    return String((error as Error).cause ?? error);
  }
}

/** Milliseconds from now until the site's process has exited, and its exit code. */
async function timeToExit(site: SiteServer): Promise<{ ms: number; code: number | null }> {
  const started = Date.now();
  const code = await site.exited;
  return { ms: Date.now() - started, code };
}

for (const { where, pidNamespace } of modes)
  describe.skipIf(pidNamespace && !namespacesPermitted)(`docker stop: SIGTERM to the server as ${where}`, () => {
    it("answers all 20 enquiries in flight to a slow upstream, each received once, and exits 0 within 10 s", async () => {
      const site = await startContainerLike(pidNamespace);
      const tokens = Array.from({ length: 20 }, () => randomUUID());
      for (const token of tokens) upstream.script(token, { delayMs: 3_000 });
      const replies = Promise.all(tokens.map((token) => postEnquiry(site, token)));
      await waitFor(() => tokens.every((token) => upstream.receivedFor(token).length === 1), "20 enquiries upstream");

      site.signal("SIGTERM");
      const exit = timeToExit(site);
      expect(await replies).toEqual(tokens.map(() => 303));
      for (const token of tokens) expect(upstream.receivedFor(token)).toHaveLength(1);
      const { ms, code } = await exit;
      expect(ms).toBeLessThan(10_000);
      expect(code).toBe(0);
      expect(site.output()).toContain("every request answered; stopped");
    });

    it("a second signal does not cut the enquiries still in flight", async () => {
      const site = await startContainerLike(pidNamespace);
      const tokens = Array.from({ length: 5 }, () => randomUUID());
      for (const token of tokens) upstream.script(token, { delayMs: 3_000 });
      const replies = Promise.all(tokens.map((token) => postEnquiry(site, token)));
      await waitFor(() => tokens.every((token) => upstream.receivedFor(token).length === 1), "5 enquiries upstream");

      site.signal("SIGTERM");
      const exit = timeToExit(site);
      await new Promise((resolve) => setTimeout(resolve, 500));
      site.signal("SIGINT");
      await new Promise((resolve) => setTimeout(resolve, 200));
      site.signal("SIGTERM");
      expect(await replies).toEqual(tokens.map(() => 303));
      const { ms, code } = await exit;
      expect(ms).toBeLessThan(10_000);
      expect(code).toBe(0);
      expect(site.output()).toMatch(/SIGINT again: still finishing 5 request\(s\) in flight/);
    });

    it("a stalled request body does not hold the process past the deadline; the enquiry in flight is still answered", async () => {
      const site = await startContainerLike(pidNamespace);
      // A post that declares 1,000 bytes and sends one every 2 s: it would take over half an hour.
      const stalled = connect(site.port, "127.0.0.1");
      const stalledClosed = new Promise<void>((resolve) => stalled.once("close", () => resolve()));
      stalled.on("error", () => {});
      stalled.write(
        "POST /contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nm",
      );
      const trickle = setInterval(() => stalled.write("a"), 2_000);
      const token = randomUUID();
      upstream.script(token, { delayMs: 2_000 });
      const reply = postEnquiry(site, token);
      await waitFor(() => upstream.receivedFor(token).length === 1, "the enquiry upstream");

      try {
        site.signal("SIGTERM");
        const { ms, code } = await timeToExit(site);
        expect(await reply).toBe(303);
        expect(ms).toBeLessThan(10_000);
        // The deadline cut a request: the exit code says so.
        expect(code).toBe(1);
        await stalledClosed;
        expect(site.output()).toMatch(/cutting 1 request\(s\) still open/);
      } finally {
        clearInterval(trickle);
        stalled.destroy();
      }
    });

    it("closes idle keep-alive connections at once, and an answer in flight closes its connection", async () => {
      const site = await startContainerLike(pidNamespace);
      const agent = new Agent({ keepAlive: true, maxSockets: 2 });
      try {
        // An idle keep-alive connection: one request answered, the socket left open.
        const idle = connect(site.port, "127.0.0.1");
        const idleClosed = new Promise<void>((resolve) => idle.once("close", () => resolve()));
        idle.on("error", () => {});
        idle.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        await new Promise((resolve) => idle.once("data", resolve));

        const token = randomUUID();
        upstream.script(token, { delayMs: 1_500 });
        const body = new URLSearchParams(enquiry(token)).toString();
        const inFlight = new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
          const req = httpRequest(
            {
              host: "127.0.0.1",
              port: site.port,
              path: "/contact",
              method: "POST",
              agent,
              headers: {
                "Content-Type": "application/x-www-form-urlencoded",
                "Content-Length": Buffer.byteLength(body),
              },
            },
            (res) => {
              res.resume();
              res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
            },
          );
          req.on("error", reject);
          req.end(body);
        });
        await waitFor(() => upstream.receivedFor(token).length === 1, "the enquiry upstream");

        const signalled = Date.now();
        site.signal("SIGTERM");
        await idleClosed;
        expect(Date.now() - signalled).toBeLessThan(1_000);
        expect(await inFlight).toEqual({ status: 303, connection: "close" });
        const { ms, code } = await timeToExit(site);
        expect(ms).toBeLessThan(3_000);
        expect(code).toBe(0);
      } finally {
        agent.destroy();
      }
    });
  });
