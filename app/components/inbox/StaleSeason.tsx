import { Link } from "@remix-run/react";
import { linkClass } from "~/components/inbox/InboxShell";
import { siteEditorCopy } from "~/wording/site-editor";
import { fieldId, formFields } from "~/site-content/form";

/**
 * The owner's reminder that the public site still offers a season that is over, with the way to fix it. No live
 * region: it is there when the page opens, and the pages' own notices keep the one status role.
 */
export function StaleSeason({ year, link = true }: { year: number | null; link?: boolean }) {
  if (year === null) return null;
  return (
    <div className="mb-4 rounded-md border border-ember-400 bg-night-800 px-4 py-3 text-bone-50" data-stale-season="">
      <p>
        <span className="font-semibold">{siteEditorCopy.staleSeason(year)}</span>
        {link ? (
          <>
            {" "}
            <Link to={`/inbox/site#${fieldId(formFields.year)}`} className={linkClass}>
              {siteEditorCopy.fixSeason}
            </Link>
          </>
        ) : null}
      </p>
    </div>
  );
}
