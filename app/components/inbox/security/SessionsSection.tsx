import { useSearchParams } from "@remix-run/react";
import { dangerButtonClass, quietButtonClass } from "~/components/inbox/InboxShell";
import { ButtonForm } from "~/components/inbox/form/ButtonForm";
import { Notice } from "~/components/inbox/form/Notice";
import { SecuritySection } from "~/components/inbox/security/SecuritySection";
import { securityCopy } from "~/wording/security";

export interface SessionRow {
  id: string;
  current: boolean;
  browser: string;
  client: string;
  /** Still owes its second step (or has to set one up). */
  waiting: boolean;
  lastSeen: string;
  lastSeenIso: string;
}

const words = securityCopy.sessions;

/** What the last button did, from `?sessions=` (app/owner/security/sessions.server.ts). */
function doneNotice(done: string | null): string | null {
  if (done === "ended") return words.ended;
  if (done === "none") return words.endedNone;
  const others = /^others-(\d{1,6})$/.exec(done ?? "");
  return others ? words.endedOthers(Number(others[1])) : null;
}

/**
 * The operator's sessions, this browser's first: which browser, from which approximate address, when last seen; a
 * "Log out" form beside each other one and "Log out everywhere else" below. Plain forms: no JavaScript needed.
 */
export function SessionsSection({ sessions }: { sessions: SessionRow[] }) {
  const [params] = useSearchParams();
  const others = sessions.filter((session) => !session.current);
  return (
    <SecuritySection id="security-sessions" title={securityCopy.page.sessions} intro={words.intro}>
      <div className="mt-4">
        <Notice>{doneNotice(params.get("sessions"))}</Notice>
      </div>
      <ul className="space-y-2">
        {sessions.map((session) => (
          <li
            key={session.id}
            className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-night-600 bg-night-800 px-4 py-3 text-bone-100"
          >
            <div className="min-w-0">
              <p className="font-semibold text-bone-50">
                {session.browser}
                {session.current ? (
                  <span className="ml-2 inline-block rounded-full border border-ghoul-400/60 px-2 py-0.5 text-xs font-medium text-ghoul-300">
                    {words.thisBrowser}
                  </span>
                ) : null}
              </p>
              <dl className="mt-1 text-sm text-bone-300">
                <div className="flex flex-wrap gap-x-2">
                  <dt>{words.address}:</dt>
                  <dd className="text-bone-100">{session.client || words.unknownAddress}</dd>
                </div>
                <div className="flex flex-wrap gap-x-2">
                  <dt>{words.lastSeen}:</dt>
                  <dd className="text-bone-100">
                    <time dateTime={session.lastSeenIso}>{session.lastSeen}</time>
                  </dd>
                </div>
              </dl>
              {session.waiting ? <p className="mt-1 text-sm text-ember-300">{words.stageWaiting}</p> : null}
            </div>
            {session.current ? null : (
              <ButtonForm
                fields={{ intent: "session-end", session: session.id }}
                action="/inbox/security"
                buttonClassName={quietButtonClass}
                label={words.endLabel(session.browser, session.lastSeen)}
              >
                {words.end}
              </ButtonForm>
            )}
          </li>
        ))}
      </ul>
      {others.length > 0 ? (
        <ButtonForm
          fields={{ intent: "sessions-end-others" }}
          action="/inbox/security"
          className="mt-4"
          buttonClassName={dangerButtonClass}
        >
          {words.endOthers}
        </ButtonForm>
      ) : (
        <p className="mt-4 text-bone-300">{words.onlyThis}</p>
      )}
    </SecuritySection>
  );
}
