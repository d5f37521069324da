import { Form, NavLink } from "@remix-run/react";
import type { ReactNode } from "react";
import { figuresCopy } from "~/wording/figures";
import { inboxCopy } from "~/wording/inbox";
import { pipelineCopy } from "~/wording/pipeline";
import { securityCopy } from "~/wording/security";
import { siteEditorCopy } from "~/wording/site-editor";
import { waitlistOwnerCopy } from "~/wording/waitlist-owner";
import { workEditorCopy } from "~/wording/work-editor";

export const buttonClass =
  "inline-flex items-center rounded-md bg-ember-500 px-4 py-2 font-semibold text-night-950 hover:bg-ember-400 focus-visible:outline-offset-4 focus-visible:outline-ember-300";
export const quietButtonClass =
  "inline-flex items-center rounded-md border border-night-600 bg-night-800 px-4 py-2 font-medium text-bone-100 hover:border-ember-400 hover:text-ember-300";
export const dangerButtonClass =
  "inline-flex items-center rounded-md border border-red-400 bg-night-800 px-4 py-2 font-medium text-red-200 hover:bg-red-950";
export const inputClass =
  "mt-1 block w-full rounded-md border border-night-600 bg-night-950 px-3 py-2 text-bone-50 placeholder:text-bone-400 focus:border-ember-400 focus:outline-none focus:ring-2 focus:ring-ember-400";
export const linkClass = "text-ember-300 underline underline-offset-4 hover:text-ember-400";

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 font-medium ${isActive ? "bg-night-700 text-ember-300" : "text-bone-100 hover:text-ember-300"}`;

/**
 * The logged-in inbox's frame: who is logged in, the inbox's own navigation, Log out (a plain form). Visitors' words may
 * be 100 characters without a space: every owner page breaks a word that does not fit (inherited, and counted in
 * flex and grid sizing, unlike break-word), so nothing widens the page past the window.
 */
export function InboxShell({ operator, children }: { operator: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 [overflow-wrap:anywhere] sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-night-600 pb-4">
        <nav aria-label={inboxCopy.nav.label}>
          <ul className="flex flex-wrap gap-2">
            <li>
              <NavLink to="/inbox" end className={tabClass}>
                {inboxCopy.nav.inbox}
              </NavLink>
            </li>
            <li>
              <NavLink to="/inbox/pipeline" className={tabClass}>
                {pipelineCopy.nav}
              </NavLink>
            </li>
            <li>
              <NavLink to="/inbox/figures" className={tabClass}>
                {figuresCopy.nav}
              </NavLink>
            </li>
            <li>
              <NavLink to="/inbox/waitlist" className={tabClass}>
                {waitlistOwnerCopy.nav}
              </NavLink>
            </li>
            <li>
              <NavLink to="/inbox/activity" className={tabClass}>
                {inboxCopy.nav.activity}
              </NavLink>
            </li>
            <li>
              <NavLink to="/inbox/site" className={tabClass}>
                {siteEditorCopy.nav}
              </NavLink>
            </li>
            <li>
              <NavLink to="/inbox/work" className={tabClass}>
                {workEditorCopy.nav}
              </NavLink>
            </li>
            <li>
              <NavLink to="/inbox/security" className={tabClass}>
                {securityCopy.nav}
              </NavLink>
            </li>
          </ul>
        </nav>
        <div className="flex flex-wrap items-center gap-3 text-sm text-bone-300">
          <span>
            {`${inboxCopy.nav.loggedInAs} `}
            <span className="font-medium text-bone-100">{operator}</span>
          </span>
          <Form method="post" action="/inbox/logout">
            <button type="submit" className={quietButtonClass}>
              {inboxCopy.nav.logout}
            </button>
          </Form>
        </div>
      </div>
      <div className="pt-6">{children}</div>
    </div>
  );
}
