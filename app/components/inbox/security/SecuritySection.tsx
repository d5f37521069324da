import type { ReactNode } from "react";

/** One part of the Security page: its heading (which names the section for screen readers) and what it is for. */
export function SecuritySection({
  id,
  title,
  intro,
  children,
}: {
  id: string;
  title: string;
  intro: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="mt-10">
      <h2 id={id} className="font-display text-2xl font-bold text-bone-50">
        {title}
      </h2>
      <p className="mt-2 max-w-prose text-bone-300">{intro}</p>
      {children}
    </section>
  );
}
