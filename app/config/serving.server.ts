import { z } from "zod";
import { emptyAsUnset, httpOrigin, isTimeZone, listenHost } from "~/config/env.server";
import { defaultLogFormat, logFormats, type LogFormat } from "~/log.server";

/**
 * Serving: where the site listens and is reached (PORT, HOST, PUBLIC_URL, TRUST_PROXY), the business's time zone
 * (SITE_TIMEZONE), the log's format (LOG_FORMAT) and the metrics listener (METRICS_PORT, METRICS_HOST).
 */
export const servingEnv = z.object({
  PORT: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(65535).default(3000)),
  HOST: z.preprocess(
    emptyAsUnset,
    listenHost("must be an address or host name to listen on, e.g. 127.0.0.1, 0.0.0.0, :: or localhost").optional(),
  ),
  PUBLIC_URL: z.preprocess(emptyAsUnset, httpOrigin("https://haunt.example").optional()),
  TRUST_PROXY: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(10).default(0)),
  SITE_TIMEZONE: z.preprocess(
    (value) => emptyAsUnset(typeof value === "string" ? value.trim() : value),
    z
      .string()
      .default("UTC")
      .refine(isTimeZone, "must be an IANA time zone name, e.g. Europe/London, America/New_York or UTC"),
  ),
  LOG_FORMAT: z.preprocess(emptyAsUnset, z.enum(logFormats, "must be json or text").optional()),
  // Unset: no metrics listener at all. Never the public port: /metrics there is the 404 page.
  METRICS_PORT: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(65535).optional()),
  METRICS_HOST: z.preprocess(
    emptyAsUnset,
    listenHost("must be an address or host name to listen on, e.g. 127.0.0.1 (the default) or 0.0.0.0").default(
      "127.0.0.1",
    ),
  ),
});

export interface ServingConfig {
  port: number;
  /** The address to listen on; undefined: every interface. */
  host: string | undefined;
  /** The site's one public origin (sitemap, robots.txt, canonical links); never taken from a request's headers. */
  publicUrl: string;
  /** False when PUBLIC_URL was not set and publicUrl is the local default. */
  publicUrlSet: boolean;
  /**
   * The business's IANA time zone (SITE_TIMEZONE, default UTC): the order window closes at midnight there, the stale
   * season is judged there, the spam digest's hour is counted there.
   */
  timeZone: string;
  /** How many reverse proxies in front of the site to believe about X-Forwarded-For/-Proto (0: none). */
  trustProxy: number;
  /**
   * LOG_FORMAT: one JSON object per line (`json`) or today's human lines (`text`); unset, text under a terminal and
   * JSON otherwise. Unset here (as in tests built by hand) means that default.
   */
  logFormat?: LogFormat;
  /** Where /metrics (Prometheus) listens, apart from the site (METRICS_PORT, METRICS_HOST); unset: no metrics. */
  metrics?: { port: number; host: string };
}

/** The metrics listener beside the site, never on its port: /metrics there would be the public 404 page. */
export function servingProblems(env: { PORT: number; METRICS_PORT?: number }): string[] {
  return env.METRICS_PORT === env.PORT
    ? ["  METRICS_PORT: must differ from PORT: the metrics are never served on the site's own port"]
    : [];
}

export function servingConfig(env: z.infer<typeof servingEnv>): ServingConfig {
  return {
    port: env.PORT,
    host: env.HOST,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    publicUrlSet: env.PUBLIC_URL !== undefined,
    timeZone: env.SITE_TIMEZONE,
    trustProxy: env.TRUST_PROXY,
    logFormat: env.LOG_FORMAT ?? defaultLogFormat(),
    metrics: env.METRICS_PORT === undefined ? undefined : { port: env.METRICS_PORT, host: env.METRICS_HOST },
  };
}
