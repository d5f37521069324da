import { createServer, type Server } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import type { NextFunction, Request, Response } from "express";
import { LRUCache } from "lru-cache";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { SiteMetrics } from "~/site-services.server";
import type { ChannelQueue } from "~/store/notifications.types";
import type { Channel } from "~/store/records";
import { currentInbox, inboxChannels } from "./database";
import { serverTimeouts } from "./shutdown";
import { log } from "~/log.server";
import { backupStatus } from "./backups";

/**
 * The process's metrics in Prometheus' text format (docs/operating.md#metrics), served by their own listener on
 * METRICS_HOST:METRICS_PORT and never on the site's port. Counters are kept in memory by prom-client; what the
 * database knows (the outbox and the photo queue) is read from it at each scrape, through the store and its timeout.
 */

const registry = new Registry();
const prefix = "haunt_";

const httpRequests = new Counter({
  name: `${prefix}http_requests_total`,
  help: "HTTP requests answered by the site, by method, route (a Remix route id, static, photos or not_found) and status.",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});
const httpDuration = new Histogram({
  name: `${prefix}http_request_duration_seconds`,
  help: "Time from a request's arrival to the end of its answer, by method and route.",
  labelNames: ["method", "route"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});
const enquiries = new Counter({
  name: `${prefix}enquiries_total`,
  help: "Enquiries posted, by outcome (accepted: stored here; forwarded: taken by API_HOST; spam: kept aside; refused, by reason).",
  labelNames: ["outcome", "reason"] as const,
  registers: [registry],
});
const loginFailures = new Counter({
  name: `${prefix}login_failures_total`,
  help: "Owner logins refused for a wrong password or code, by step (password, code).",
  labelNames: ["step"] as const,
  registers: [registry],
});
const loginThrottles = new Counter({
  name: `${prefix}login_throttled_total`,
  help: "Owner login attempts not checked, by step and reason (throttled: too many for the account; busy: the site-wide rate; overloaded: the hashing queue full).",
  labelNames: ["step", "reason"] as const,
  registers: [registry],
});
// Read from the backups' state at each scrape (server/backups.ts); absent, not 0, while backups are off or nothing is
// known yet: 0 would read as "the last backup failed".
new Gauge({
  name: `${prefix}backup_last_success_timestamp_seconds`,
  help: "When the newest good backup was taken (Unix time); absent while backups are off or none is known.",
  registers: [registry],
  collect() {
    const taken = backupStatus()?.newestBackupAt;
    if (taken) this.set(taken.getTime() / 1000);
    else this.remove();
  },
}).remove();
new Gauge({
  name: `${prefix}backup_last_result`,
  help: "The last backup attempt's result: 1 ok, 0 failed; absent while backups are off or none was tried.",
  registers: [registry],
  collect() {
    const ok = backupStatus()?.ok;
    if (ok === true || ok === false) this.set(ok ? 1 : 0);
    else this.remove();
  },
}).remove();

/** The database's view, read once per scrape for every gauge that needs it; null when it did not answer. */
interface QueueReading {
  notifications: ChannelQueue[];
  pendingRenditions: number;
  at: number;
}
let reading: Promise<QueueReading | null> | undefined;
let readFailing = false;

function readQueues(): Promise<QueueReading | null> {
  // The scrape asks every gauge at once: they share one reading, forgotten once it is done.
  reading ??= readDatabase().finally(() => (reading = undefined));
  return reading;
}

async function readDatabase(): Promise<QueueReading | null> {
  try {
    const store = currentInbox();
    const [notifications, pendingRenditions] = await Promise.all([
      store.queueByChannel(),
      store.pendingRenditionCount(),
    ]);
    if (readFailing) log.info("[metrics] the database answers the scrape again");
    readFailing = false;
    return { notifications, pendingRenditions, at: Date.now() };
  } catch (error) {
    if (!readFailing) {
      log.error(
        `[metrics] the outbox and photo queue gauges are left out while the database does not answer: ${(error as Error).message}`,
      );
    }
    readFailing = true;
    return null;
  }
}

/** The configured channels, and any other a notification still waits on, each with a row (zeros when idle). */
function queuesByChannel(found: readonly ChannelQueue[]): ChannelQueue[] {
  const channels = new Set<Channel>([...inboxChannels(), ...found.map((queue) => queue.channel)]);
  return [...channels].map(
    (channel) =>
      found.find((queue) => queue.channel === channel) ?? { channel, pending: 0, failed: 0, oldestPendingSince: null },
  );
}

/** A gauge per channel, set at each scrape from the database's reading; absent when the database did not answer. */
function channelGauge(name: string, help: string, value: (queue: ChannelQueue, at: number) => number) {
  const gauge: Gauge<"channel"> = new Gauge({
    name: `${prefix}${name}`,
    help,
    labelNames: ["channel"] as const,
    registers: [registry],
    async collect() {
      const read = await readQueues();
      gauge.reset();
      if (!read) return;
      for (const queue of queuesByChannel(read.notifications))
        gauge.set({ channel: queue.channel }, value(queue, read.at));
    },
  });
  return gauge;
}

let databaseGauges = false;

/** The gauges read from the inbox database (none with API_HOST: there is no database). */
function registerDatabaseGauges(): void {
  if (databaseGauges) return;
  databaseGauges = true;
  channelGauge("notifications_pending", "Enquiry notifications waiting to be delivered, by channel.", (q) => q.pending);
  channelGauge(
    "notifications_failed",
    "Enquiry notifications given up (after a day of retries, or refused for good), by channel; `npm run inbox -- retry` puts them back.",
    (q) => q.failed,
  );
  channelGauge(
    "notifications_oldest_pending_age_seconds",
    "How long the oldest pending notification has waited, by channel (0 when none waits).",
    (q, at) => (q.oldestPendingSince ? Math.max(0, (at - q.oldestPendingSince.getTime()) / 1000) : 0),
  );
  const renditions: Gauge = new Gauge({
    name: `${prefix}photo_encoder_queue`,
    help: "Photo renditions waiting to be encoded (every instance's uploads).",
    registers: [registry],
    async collect() {
      const read = await readQueues();
      if (read) renditions.set(read.pendingRenditions);
      else renditions.remove();
    },
  });
  const up: Gauge = new Gauge({
    name: `${prefix}inbox_database_up`,
    help: "1 when the inbox database answered this scrape's reads, 0 when it did not (the queue gauges are then absent).",
    registers: [registry],
    async collect() {
      up.set((await readQueues()) ? 1 : 0);
    },
  });
}

/** What the app reports (through `context.services.metrics`). */
export const siteMetrics: SiteMetrics = {
  enquiry(metric) {
    enquiries.inc(metric.outcome === "refused" ? { outcome: "refused", reason: metric.reason } : metric);
  },
  login({ step, outcome }) {
    if (outcome === "wrong") loginFailures.inc({ step });
    else if (outcome === "throttled" || outcome === "busy" || outcome === "overloaded")
      loginThrottles.inc({ step, reason: outcome });
  },
};

/** What the labels need of the Remix build (ServerBuild): its route manifest and where its assets are served. */
interface RoutedBuild {
  routes: Record<string, Pick<ServerBuild["routes"][string], "id" | "parentId" | "path" | "index" | "caseSensitive">>;
  publicPath: string;
}

/**
 * The route label of a request: the Remix route that answers its path (route ids are a fixed set), "static" for the
 * build's assets and public/, "photos", or "not_found". Never the path itself: the label set stays small.
 */
export function routeLabeller(build: RoutedBuild) {
  const tree = routeTree(build.routes, undefined);
  // matchRoutes flattens and ranks the whole table at each call (a few hundred µs): the paths seen often (pages, the
  // page cache's hits) are matched once. Bounded, so a scan of unknown paths costs a match each and no memory.
  const matched = new LRUCache<string, string>({ max: 1_000 });
  const routeOf = (path: string): string => {
    const known = matched.get(path);
    if (known !== undefined) return known;
    // Single fetch's data requests (/contact.data, /_root.data) are the route's own.
    const routePath = path === "/_root.data" ? "/" : path.endsWith(".data") ? path.slice(0, -5) : path;
    const id = matchRoutes(tree, routePath)?.at(-1)?.route.id ?? "";
    if (path.length <= 200) matched.set(path, id);
    return id;
  };
  return (path: string, status: number): string => {
    if (path.startsWith(build.publicPath)) return "static";
    if (path.startsWith("/photos/")) return "photos";
    try {
      decodeURIComponent(path); // the router would log a warning for each path it cannot decode
    } catch {
      return "not_found";
    }
    const id = routeOf(path);
    // The splat route is the 404 page; what it did not answer (status < 400) was a file of public/.
    if (!id || id === "routes/$") return status < 400 ? "static" : "not_found";
    return id;
  };
}

function routeTree(routes: RoutedBuild["routes"], parentId: string | undefined): AgnosticRouteObject[] {
  return Object.values(routes)
    .filter((route) => route.parentId === parentId)
    .map((route): AgnosticRouteObject => {
      const { id, path, caseSensitive } = route;
      return route.index
        ? { id, path, caseSensitive, index: true }
        : { id, path, caseSensitive, children: routeTree(routes, id) };
    });
}

const methods = new Set(["GET", "HEAD", "POST"]);

/** Counts and times every answer the site gives (static files too), by route label and status. */
export function requestMetrics(build: RoutedBuild) {
  const label = routeLabeller(build);
  return (request: Request, response: Response, next: NextFunction) => {
    const started = performance.now();
    response.once("finish", () => {
      const method = methods.has(request.method) ? request.method : "other";
      const route = label(request.originalUrl.split("?")[0]!, response.statusCode);
      httpRequests.inc({ method, route, status: String(response.statusCode) });
      httpDuration.observe({ method, route }, (performance.now() - started) / 1000);
    });
    next();
  };
}

/**
 * Starts collecting the process's own metrics (event-loop lag, heap, RSS, …) and the database's gauges, and makes
 * the listener that serves them. The caller listens (its port in use is one line, like the site's) and closes it.
 */
export function metricsServer({ database }: { database: boolean }): Server {
  collectDefaultMetrics({ register: registry, prefix });
  if (database) registerDatabaseGauges();
  // Known from the start at 0, so a rate is defined before the first enquiry or wrong password.
  for (const outcome of ["accepted", "forwarded", "spam"] as const) enquiries.inc({ outcome }, 0);
  for (const step of ["password", "code"] as const) loginFailures.inc({ step }, 0);
  const server = createServer(serverTimeouts, (request, response) => {
    const path = (request.url ?? "").split("?")[0];
    if (path !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      response
        .writeHead(404, { "Content-Type": "text/plain; charset=utf-8" })
        .end("Not found: the metrics are at /metrics\n");
      return;
    }
    registry.metrics().then(
      (text) => {
        response.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
        response.end(request.method === "HEAD" ? undefined : text);
      },
      (error: unknown) => {
        log.error(`[metrics] the scrape failed: ${(error as Error).message}`);
        response
          .writeHead(500, { "Content-Type": "text/plain; charset=utf-8" })
          .end("The metrics could not be collected\n");
      },
    );
  });
  return server;
}
