import { Link } from "@remix-run/react";
import { linkClass } from "~/components/inbox/InboxShell";
import { reminderCopy } from "~/wording/reminders";

export interface DueTodayItem {
  id: string;
  enquiryId: string;
  dueOn: string;
  name: string;
}

/**
 * "Due today" on the inbox's first page: the open reminders whose day has come (today, or earlier and not marked
 * done, with that day), each the customer's name linking to their enquiry. Nothing when there are none.
 */
export function DueToday({ items, today }: { items: readonly DueTodayItem[]; today: string }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="due-today" className="mt-4 rounded-xl border border-ember-400/60 bg-night-800/70 p-4">
      <h2 id="due-today" className="text-lg font-semibold text-bone-50">
        {reminderCopy.dueToday.heading}
      </h2>
      <ul className="mt-2 grid gap-1">
        {items.map((item) => (
          <li key={item.id} className="break-words" data-due-reminder="">
            <Link to={`/inbox/${encodeURIComponent(item.enquiryId)}#reminders`} className={linkClass}>
              {item.name}
            </Link>
            {item.dueOn < today ? (
              <span className="text-sm text-bone-300"> ({reminderCopy.dueToday.overdue(item.dueOn)})</span>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
