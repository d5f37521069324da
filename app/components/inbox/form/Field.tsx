import type { InputHTMLAttributes, ReactNode } from "react";
import { inputClass } from "~/components/inbox/InboxShell";

/** What ties a control to its label and messages: spread first on the input, textarea or select. */
export interface FieldControl {
  id: string;
  "aria-describedby": string | undefined;
  "aria-invalid": true | undefined;
}

/** The ids a control is described by, in reading order, or none. */
export const describedBy = (...ids: (string | false | null | undefined)[]) =>
  ids.filter(Boolean).join(" ") || undefined;

/** The input look, with a red edge on a field the last post refused. */
export const fieldInputClass = (invalid: boolean) => `${inputClass}${invalid ? " border-red-400" : ""}`;

/** A field's hint and its own message after a refused post, with the ids its control is described by. */
export function FieldMessages({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="mt-0.5 text-sm text-bone-300">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-semibold text-red-300">
          {error}
        </p>
      ) : null}
    </>
  );
}

interface FieldFrame {
  id: string;
  label: ReactNode;
  /** A line of help, under the label (or under the control with `hintAfter`, where a form reads better so). */
  hint?: ReactNode;
  hintAfter?: boolean;
  /** This field's own message after a refused post, under the label; marks the control invalid. */
  error?: string;
  /** The id of a message shown elsewhere (the form's alert) that the control is read with, before its hint. */
  alertId?: string;
  /** Marks the control invalid where the message is that alert rather than its own. */
  invalid?: boolean;
  /** A smaller label, for a one-field form such as the search. */
  small?: boolean;
  /** The field's box (its width, its spacing). */
  className?: string;
}

type FieldProps = FieldFrame &
  Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "className" | "children"> & {
    /** The input's look; by default the owner pages' input, red-edged when refused. */
    inputClassName?: string;
    /** Another control (a textarea, a select): spread what it is given first, so label and messages reach it. */
    children?: (control: FieldControl) => ReactNode;
  };

/**
 * One field of an owner form: its label, hint and message, and the control wired to them (id, aria-describedby,
 * aria-invalid), so that a screen reader reads the label, the help and what went wrong with the control itself.
 * The control is an input given the rest of the props, or what `children` draws.
 */
export function Field({
  id,
  label,
  hint,
  hintAfter,
  error,
  alertId,
  invalid,
  small,
  className,
  inputClassName,
  children,
  ...input
}: FieldProps) {
  const control: FieldControl = {
    id,
    "aria-describedby": describedBy(alertId, hint ? `${id}-hint` : null, error && `${id}-error`),
    "aria-invalid": error || invalid ? true : undefined,
  };
  return (
    <div className={className}>
      <label
        htmlFor={id}
        className={small ? "block text-sm font-medium text-bone-100" : "block font-medium text-bone-100"}
      >
        {label}
      </label>
      <FieldMessages id={id} hint={hintAfter ? undefined : hint} error={error} />
      {children ? (
        children(control)
      ) : (
        <input
          id={id}
          {...input}
          aria-describedby={control["aria-describedby"]}
          aria-invalid={control["aria-invalid"]}
          className={inputClassName ?? fieldInputClass(Boolean(error))}
        />
      )}
      {hint && hintAfter ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-bone-300">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
