import { Form } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * A form that is one button: what it does rides in hidden fields (`intent` and the like), so it works without
 * JavaScript and another site cannot trigger it with a link.
 */
export function ButtonForm({
  fields,
  action,
  className,
  buttonClassName,
  label,
  disabled,
  children,
}: {
  /** The hidden fields, in order: `{ intent: "spam" }`. */
  fields: Record<string, string>;
  action?: string;
  className?: string;
  buttonClassName: string;
  /** The button's accessible name where its words alone are not enough ("Remove" which passkey). */
  label?: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Form method="post" action={action} className={className}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={buttonClassName} aria-label={label} disabled={disabled}>
        {children}
      </button>
    </Form>
  );
}
