import type { ReactNode } from "react";

interface FieldProps {
  id: string;
  label: string;
  hint?: ReactNode;
  errors?: string[];
  errorId: string;
  hintId?: string;
  children: ReactNode;
}

/** A labelled form field with its hint below and its errors, in words, next to it. */
export function Field({ id, label, hint, errors, errorId, hintId, children }: FieldProps) {
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      <div id={errorId} className="field-error" aria-live="polite">
        {errors?.length ? errors.join(" ") : null}
      </div>
    </div>
  );
}

/** Errors about the whole form (not one field), announced when they appear. */
export function FormErrors({ id, errors }: { id?: string; errors?: string[] }) {
  return errors?.length ? (
    <div id={id} role="alert" className="rounded-lg bg-danger-50 p-3 text-danger-600">
      {errors.join(" ")}
    </div>
  ) : null;
}
