import { Field, fieldInputClass } from "~/components/inbox/form/Field";

export interface TextFieldProps {
  id: string;
  name: string;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  maxLength?: number;
  /** A textarea this many rows high, rather than a one-line input. */
  rows?: number;
  type?: "text" | "date" | "email" | "tel";
  inputMode?: "numeric" | "decimal" | "email" | "tel" | "url";
  autoComplete?: string;
  required?: boolean;
  className?: string;
}

/**
 * A field of a form the server judges (noValidate: the same with JavaScript on and off): what was typed is the
 * starting value, "required" is said to assistive technology without the browser's own check, no autofill unless
 * asked for.
 */
export function TextField({
  name,
  value,
  maxLength,
  rows,
  type = "text",
  inputMode,
  autoComplete = "off",
  required,
  ...field
}: TextFieldProps) {
  return (
    <Field {...field}>
      {(control) => {
        const common = {
          ...control,
          name,
          defaultValue: value,
          maxLength,
          "aria-required": required ? true : undefined,
          className: fieldInputClass(Boolean(field.error)),
        };
        return rows ? (
          <textarea {...common} rows={rows} />
        ) : (
          <input {...common} type={type} autoComplete={autoComplete} inputMode={inputMode} />
        );
      }}
    </Field>
  );
}
