import { useEffect, useRef, type ReactNode } from "react";
import { linkClass } from "~/components/inbox/InboxShell";

/** One problem in the summary: its words and, where the field is on the page, the link that takes the reader there. */
export interface Problem {
  key: string;
  text: string;
  /** The field's id. */
  field?: string;
}

/**
 * "There is a problem": why the last post was refused, as a whole (`lines`) and field by field (`problems`, each a
 * link to its field). It takes the focus when it appears (and when `focusKey` changes) so that a screen reader reads
 * it and a keyboard starts from it; nothing when there is nothing to say.
 */
export function ErrorSummary({
  lines,
  problems = [],
  focusKey,
  className,
}: {
  lines: ReactNode[];
  problems?: Problem[];
  focusKey?: string;
  className?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const said = lines.filter(Boolean);
  const shown = said.length > 0 || problems.length > 0;
  useEffect(() => {
    if (shown) box.current?.focus();
  }, [shown, focusKey]);
  if (!shown) return null;
  return (
    <div
      ref={box}
      role="alert"
      tabIndex={-1}
      className={`${className ? `${className} ` : ""}rounded-md border border-red-400 bg-night-800 px-4 py-3 text-bone-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-300`}
    >
      {said.map((line, index) => (
        <p key={index} className="font-semibold">
          {line}
        </p>
      ))}
      {problems.length > 0 ? (
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {problems.map((problem) => (
            <li key={problem.key}>
              {problem.field ? (
                <a href={`#${problem.field}`} className={linkClass}>
                  {problem.text}
                </a>
              ) : (
                problem.text
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
