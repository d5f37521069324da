import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { log as logger } from "~/log.server";

/**
 * How the server process stops on SIGTERM/SIGINT (docker stop, a deploy, Ctrl-C) without losing an enquiry: it stops
 * accepting connections, closes idle keep-alive connections, lets every request in flight finish (each answer then
 * closes its connection), and only then stops the services. Whatever is still open at the deadline is cut, so a
 * stalled client cannot hold a deploy: docker stop waits 10 s before its SIGKILL.
 */

/** Node's HTTP timeouts: a request's headers, and the whole request, must arrive within these. */
export const serverTimeouts = {
  headersTimeout: 10_000,
  // Forms are a few KiB: a request still arriving after 30 s is stalled or hostile.
  requestTimeout: 30_000,
  // How often Node checks those two (its default, 30 s, lets a stalled request live up to a minute).
  connectionsCheckingInterval: 1_000,
} as const;

export const shutdownDeadlineMs = 8_500;

interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

const serverLog: Log = {
  info: (message) => logger.info(`[server] ${message}`),
  warn: (message) => logger.warn(`[server] ${message}`),
  error: (message, error) => logger.error(`[server] ${message}`, { error }),
};

export interface GracefulShutdown {
  /** Starts the shutdown (once; later calls log and keep draining). Resolves with the exit code. */
  shutdown(signal: string): Promise<number>;
  /** Requests not yet answered. */
  inFlight(): number;
}

export function gracefulShutdown(
  server: Server,
  {
    stopBackground = async () => {},
    stopServices,
    deadlineMs = shutdownDeadlineMs,
    log = serverLog,
  }: {
    /** Background work that takes no requests (the notification sender): stopped at once, beside the drain. */
    stopBackground?: () => Promise<void>;
    /** What the requests use (the database): stopped after the last answer. */
    stopServices: () => Promise<void>;
    deadlineMs?: number;
    log?: Log;
  },
): GracefulShutdown {
  const active = new Set<ServerResponse>();
  let stopping: Promise<number> | undefined;

  // Before Express sees the request: static files count as much as pages and posts.
  server.prependListener("request", (_req: IncomingMessage, res: ServerResponse) => {
    active.add(res);
    res.once("close", () => active.delete(res));
    if (stopping) res.setHeader("Connection", "close");
  });

  async function drain(signal: string): Promise<number> {
    log.info(`${signal}: no new connections; finishing ${active.size} request(s) in flight`);
    const background = stopBackground().catch((error: unknown) =>
      log.error("stopping the background work failed:", error),
    );
    // Answers not started yet close their connection; answers being sent free theirs when done (swept below).
    for (const res of active) if (!res.headersSent) res.setHeader("Connection", "close");
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const sweep = setInterval(() => server.closeIdleConnections(), 100);

    let cut = 0;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        cut = active.size;
        log.warn(`shutdown deadline (${deadlineMs} ms): cutting ${cut} request(s) still open`);
        server.closeAllConnections();
        resolve();
      }, deadlineMs);
    });
    await Promise.race([closed, deadline]);
    clearTimeout(timer);
    clearInterval(sweep);

    try {
      await background;
      await stopServices();
    } catch (error) {
      log.error("stopping the services failed:", error);
      return 1;
    }
    log.info(cut === 0 ? "every request answered; stopped" : "stopped");
    return cut === 0 ? 0 : 1;
  }

  return {
    shutdown(signal) {
      if (stopping) {
        // A second Ctrl-C or an impatient supervisor: the enquiries in flight still finish (the deadline holds).
        log.warn(`${signal} again: still finishing ${active.size} request(s) in flight`);
        return stopping;
      }
      stopping = drain(signal);
      return stopping;
    },
    inFlight: () => active.size,
  };
}
