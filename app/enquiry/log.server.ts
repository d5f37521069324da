/** One structured log line per enquiry attempt. It never carries the visitor's message or e-mail address. */
export interface AttemptLog {
  outcome: string;
  upstream: "api" | "embedded";
  upstreamStatus?: number;
  durationMs: number;
  error?: string;
}

export function logAttempt(entry: AttemptLog): void {
  const line = JSON.stringify({ time: new Date().toISOString(), event: "enquiry", ...entry });
  if (entry.error) console.error(line);
  else console.log(line);
}
