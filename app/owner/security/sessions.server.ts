import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/react";
import type { OperatorSession } from "~/owner/gate.server";
import { absoluteTime } from "~/text/time";
import { privateHeaders } from "~/owner/headers";
import type { SecurityIntent } from "~/owner/security/page.server";
import { sessionLimits } from "~/owner/session.server";

/** The Security page's sessions: this operator's sessions, where and when each was last used. */
export async function sessionsSection({ operator, store, sessionIdHash }: OperatorSession, now = new Date()) {
  const sessions = await store.listSessions(operator.id);
  // A session past its idle time or its longest life opens nothing any more (its row goes at its next use): not listed.
  const live = sessions.filter(
    (session) =>
      now.getTime() - session.lastSeenAt.getTime() < sessionLimits.idleMs &&
      now.getTime() - session.createdAt.getTime() < sessionLimits.maxAgeMs,
  );
  return live
    .map((session) => ({
      // The id hash names a session in the page's buttons: it opens nothing (the cookie holds the id, not its hash).
      id: session.idHash,
      current: session.idHash === sessionIdHash,
      browser: session.browser || "an unknown browser",
      client: session.client,
      waiting: session.stage !== "full",
      lastSeen: absoluteTime(session.lastSeenAt),
      lastSeenIso: session.lastSeenAt.toISOString(),
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** What the page says after a button (read by the section from `?sessions=`), then back at the sessions' heading. */
export type SessionsDone = "ended" | "none" | `others-${number}`;
const back = (done: SessionsDone) =>
  redirect(`/inbox/security?sessions=${done}#security-sessions`, { status: 303, headers: privateHeaders });

/** A session's id hash as the page sends it (SHA-256, hex); anything else names no session. */
const idHash = (value: FormDataEntryValue | null) =>
  typeof value === "string" && /^[0-9a-f]{64}$/.test(value) ? value : null;

/**
 * "Log out" beside one session: ends it if it is one of this operator's (a hash of another operator's session, or of
 * one that has ended, does nothing). This browser's own session has no such button (the inbox's Log out is for it).
 */
const endOne: SecurityIntent = async (_args: ActionFunctionArgs, { operator, store, sessionIdHash }, form) => {
  const target = idHash(form.get("session"));
  if (!target || target === sessionIdHash) return back("none");
  const browser = (await store.listSessions(operator.id)).find((session) => session.idHash === target)?.browser;
  if (!(await store.endSession(operator.id, target))) return back("none");
  await store.logActivity({
    actor: operator.email,
    action: "logged out another session",
    detail: browser ? `of ${browser}` : null,
  });
  return back("ended");
};

/** "Log out everywhere else": every session of this operator but this browser's. */
const endOthers: SecurityIntent = async (_args, { operator, store, sessionIdHash }) => {
  const count = await store.endOtherSessions(operator.id, sessionIdHash);
  await store.logActivity({
    actor: operator.email,
    action: "logged out everywhere else",
    detail: `${count} ${count === 1 ? "session" : "sessions"}`,
  });
  return back(`others-${count}`);
};

export const sessionIntents: Record<string, SecurityIntent> = {
  "session-end": endOne,
  "sessions-end-others": endOthers,
};
