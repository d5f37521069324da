import { log } from "~/log.server";

/** One structured log line per enquiry attempt. It never carries the visitor's message or e-mail address. */
export interface AttemptLog {
  outcome: string;
  upstream: "api" | "embedded";
  upstreamStatus?: number;
  durationMs: number;
  error?: string;
}

export function logAttempt(entry: AttemptLog): void {
  log.event("enquiry", { ...entry }, entry.error ? "error" : "info");
}
