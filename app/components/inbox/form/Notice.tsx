import type { ReactNode } from "react";

/**
 * What an owner page says back after a post or a redirect: done (success), worth knowing (info), needs doing
 * (warning), or refused (error). Success, info and warning are a polite status; an error is an alert, read at once.
 */
export type NoticeTone = "success" | "info" | "warning" | "error";

const toneClass: Record<NoticeTone, string> = {
  success: "rounded-md border border-ghoul-400/60 bg-night-800 px-4 py-3 text-bone-50",
  info: "text-bone-100",
  warning: "rounded-md border border-ember-400 bg-night-800 px-4 py-3 text-bone-50",
  error: "rounded-md border border-red-400 bg-night-900 px-4 py-3 text-bone-50",
};

/** Nothing at all when there is nothing to say, so a page can always place one where it would appear. */
export function Notice({
  tone = "success",
  id,
  className = "mb-4",
  children,
}: {
  tone?: NoticeTone;
  /** For a field or form that points at this message with aria-describedby. */
  id?: string;
  /** Its spacing on the page. */
  className?: string;
  children: ReactNode;
}) {
  if (children === null || children === undefined || children === false || children === "") return null;
  return (
    <p
      id={id}
      role={tone === "error" ? "alert" : "status"}
      className={className ? `${className} ${toneClass[tone]}` : toneClass[tone]}
    >
      {children}
    </p>
  );
}
