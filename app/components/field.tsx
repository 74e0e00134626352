import { type FieldMetadata, getTextareaProps } from "@conform-to/react";
import { getInputProps } from "./input-props.ts";
import type { InputHTMLAttributes, ReactNode } from "react";
import { useTranslations } from "../i18n/use-translations.ts";
import { useErrorText } from "../lib/use-message-text.ts";

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
  const errorText = useErrorText();
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
        {errorText(errors)}
      </div>
    </div>
  );
}

interface TextFieldProps<S> extends Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "id" | "name" | "defaultValue" | "form"> {
  field: FieldMetadata<S>;
  label: string;
  /** Shown under the field and read with it (aria-describedby). */
  hint?: ReactNode;
  type?: "text" | "tel" | "email" | "date" | "datetime-local" | "password";
}

/** A labelled input for a Conform field: its constraints and saved value, the hint, its errors next to it. */
export function TextField<S>({ field, label, hint, type = "text", className, ...attributes }: TextFieldProps<S>) {
  const { key, ...props } = getInputProps(field, { type, ariaDescribedBy: hint ? field.descriptionId : undefined });
  return (
    <Field id={field.id} label={label} hint={hint} hintId={field.descriptionId} errors={field.errors} errorId={field.errorId}>
      <input key={key} className={className ? `field-input ${className}` : "field-input"} {...props} {...attributes} />
    </Field>
  );
}

/** A labelled text area for a Conform field (a reason, a note): the hint under it and read with it, its errors next to it. */
export function TextAreaField<S>({
  field,
  label,
  hint,
  rows = 3,
}: {
  field: FieldMetadata<S>;
  label: string;
  hint?: ReactNode;
  rows?: number;
}) {
  const { key, ...props } = getTextareaProps(field, { ariaDescribedBy: hint ? field.descriptionId : undefined });
  return (
    <Field id={field.id} label={label} hint={hint} hintId={field.descriptionId} errors={field.errors} errorId={field.errorId}>
      <textarea key={key} className="field-input min-h-24" rows={rows} {...props} />
    </Field>
  );
}

/** A field's errors in the page's language, for a field laid out by hand (Field and the fields here show theirs). */
export function ErrorText({ errors }: { errors?: string[] }) {
  return useErrorText()(errors);
}

/** Errors about the whole form (not one field), announced when they appear. */
export function FormErrors({ id, errors }: { id?: string; errors?: string[] }) {
  const errorText = useErrorText();
  return errors?.length ? (
    <div id={id} role="alert" className="rounded-lg bg-danger-50 p-3 text-danger-600">
      {errorText(errors)}
    </div>
  ) : null;
}

interface ConformFieldLike {
  id: string;
  name: string;
  errorId: string;
  errors?: string[];
  initialValue?: unknown;
  /** Changes when Conform resets the field (a new server answer), remounting the select. */
  key?: string;
}

/** A labelled file input for a Conform field (an import's CSV): the hint under it and read with it, its errors next to it. */
export function FileField({
  field,
  label,
  hint,
  accept,
}: {
  field: ConformFieldLike & { descriptionId: string };
  label: string;
  hint: ReactNode;
  accept: string;
}) {
  return (
    <Field id={field.id} label={label} hint={hint} hintId={field.descriptionId} errors={field.errors} errorId={field.errorId}>
      <input
        id={field.id}
        name={field.name}
        type="file"
        accept={accept}
        className="block w-full text-sm"
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={`${field.descriptionId} ${field.errorId}`}
      />
    </Field>
  );
}

/** A labelled select of `options` (value → label) for a Conform field, with "Choose…" first (validation.choose, on every page). */
export function SelectField({ field, label, options }: { field: ConformFieldLike; label: string; options: Record<string, string> }) {
  const t = useTranslations("validation");
  return (
    <Field id={field.id} label={label} errors={field.errors} errorId={field.errorId}>
      <select
        key={field.key}
        id={field.id}
        name={field.name}
        className="field-input"
        defaultValue={typeof field.initialValue === "string" ? field.initialValue : ""}
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={field.errors?.length ? field.errorId : undefined}
      >
        <option value="">{t("choose")}</option>
        {Object.entries(options).map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A labelled checkbox ("yes" when ticked) for a Conform field, its error next to it. */
export function CheckboxField({ field, label, defaultChecked }: { field: ConformFieldLike; label: ReactNode; defaultChecked?: boolean }) {
  const errorText = useErrorText();
  return (
    <div>
      <div className="flex items-start gap-2">
        <input
          id={field.id}
          name={field.name}
          type="checkbox"
          value="yes"
          defaultChecked={defaultChecked}
          className="mt-1 size-4 shrink-0"
          aria-invalid={field.errors?.length ? true : undefined}
          aria-describedby={field.errorId}
        />
        <label htmlFor={field.id}>{label}</label>
      </div>
      <div id={field.errorId} className="field-error" aria-live="polite">
        {errorText(field.errors)}
      </div>
    </div>
  );
}

/**
 * A field of a filter form sent by GET (a date, a month or text): its value as the page read it,
 * and beside it, in words, why what was asked for was not used (the page shows its default instead).
 */
export function QueryField({
  id,
  label,
  value,
  problem,
  type = "date",
  ...attributes
}: {
  id: string;
  label: string;
  value: string;
  problem?: string;
  type?: "date" | "month" | "text";
} & Pick<InputHTMLAttributes<HTMLInputElement>, "placeholder" | "inputMode" | "maxLength">) {
  const errorId = `${id}-error`;
  const range =
    type === "date"
      ? { min: "2000-01-01", max: "2099-12-31" }
      : type === "month"
        ? { min: "2000-01", max: "2099-12" }
        : { autoComplete: "off" };
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <input
        key={value}
        id={id}
        name={id}
        type={type}
        className="field-input"
        defaultValue={value}
        {...range}
        {...attributes}
        aria-invalid={problem ? true : undefined}
        aria-describedby={errorId}
      />
      <p id={errorId} className="field-error" data-testid={`${id}-problem`}>
        {problem ?? null}
      </p>
    </div>
  );
}
