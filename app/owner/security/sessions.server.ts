import type { OperatorSession } from "~/owner/gate.server";
import { absoluteTime } from "~/owner/format";
import type { SecurityIntent } from "~/owner/security/page.server";

/** The Security page's sessions: this operator's sessions, where and when each was last used. */
export async function sessionsSection({ operator, store, sessionIdHash }: OperatorSession) {
  const sessions = await store.listSessions(operator.id);
  return sessions.map((session) => ({
    // The id hash names a session in the page's buttons: it opens nothing (the cookie holds the id, not its hash).
    id: session.idHash,
    current: session.idHash === sessionIdHash,
    browser: session.browser,
    client: session.client,
    lastSeen: absoluteTime(session.lastSeenAt),
    lastSeenIso: session.lastSeenAt.toISOString(),
  }));
}

export const sessionIntents: Record<string, SecurityIntent> = {};
