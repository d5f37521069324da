import { securityCopy } from "~/content/security";

export interface SessionRow {
  id: string;
  current: boolean;
  browser: string;
  client: string;
  lastSeen: string;
  lastSeenIso: string;
}

/** The operator's sessions, each with where and when it was last used. */
export function SessionsSection({ sessions }: { sessions: SessionRow[] }) {
  return (
    <section aria-labelledby="security-sessions" className="mt-10">
      <h2 id="security-sessions" className="font-display text-2xl font-bold text-bone-50">
        {securityCopy.page.sessions}
      </h2>
      <ul className="mt-4 space-y-2">
        {sessions.map((session) => (
          <li key={session.id} className="rounded-md border border-night-600 bg-night-800 px-4 py-3 text-bone-100">
            {session.browser} · {session.client} · <time dateTime={session.lastSeenIso}>{session.lastSeen}</time>
          </li>
        ))}
      </ul>
    </section>
  );
}
