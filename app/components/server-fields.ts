// A form's fields for the server's render, read from Conform's state once each instead of through
// its metadata proxies. Conform (1.21) answers every read of a field's property (`id`, `errors`,
// `required`, … about twenty for one input's props) by building a new metadata proxy, and records
// the read for its re-render subscriptions: a fifth of a form page's server render. The server
// renders a page once and never re-renders it, so it needs no subscription: each field here is a
// plain object with the same values (the same reads of the same state), which Conform's own
// getInputProps / getSelectProps turn into the very attributes the browser's render gives it.
import type { FormMetadata } from "@conform-to/react";

interface ConformState {
  initialValue: Record<string, unknown>;
  value: Record<string, unknown>;
  error: Record<string, string[] | undefined>;
  key: Record<string, string | undefined>;
  valid: Record<string, boolean>;
  dirty: Record<string, boolean>;
  constraint: Record<string, Record<string, unknown> | undefined>;
}

interface ConformContext {
  getFormId(): string;
  getState(): ConformState;
}

/** Conform's form context behind `form.context` (its wrapped symbol), or null when it is not there. */
function contextOf(form: FormMetadata<Record<string, unknown>, string[]>): ConformContext | null {
  const wrapped = form.context as unknown as Record<symbol, unknown>;
  const symbol = Object.getOwnPropertySymbols(wrapped)[0];
  const context = symbol ? (wrapped[symbol] as Partial<ConformContext> | undefined) : undefined;
  return typeof context?.getState === "function" && typeof context.getFormId === "function" ? (context as ConformContext) : null;
}

/** One field as Conform's metadata says it (`original`, Conform's own, for its errors below it and its nested fields). */
function plainField(formId: string, state: ConformState, name: string, original: () => Record<string, unknown>) {
  const id = `${formId}-${name}`;
  const initialValue = state.initialValue[name];
  const constraint = state.constraint[name];
  return {
    id,
    name,
    formId,
    errorId: `${id}-error`,
    descriptionId: `${id}-description`,
    initialValue,
    value: state.value[name],
    errors: state.error[name],
    key: state.key[name],
    valid: state.valid[name],
    dirty: state.dirty[name],
    required: constraint?.required,
    minLength: constraint?.minLength,
    maxLength: constraint?.maxLength,
    min: constraint?.min,
    max: constraint?.max,
    pattern: constraint?.pattern,
    step: constraint?.step,
    multiple: constraint?.multiple,
    accept: constraint?.accept,
    get defaultValue() {
      if (typeof initialValue === "string") return initialValue;
      return Array.isArray(initialValue) ? (initialValue[0] as unknown) : undefined;
    },
    get defaultOptions() {
      if (typeof initialValue === "string") return [initialValue];
      return Array.isArray(initialValue) && initialValue.every((item) => typeof item === "string") ? initialValue : undefined;
    },
    get defaultChecked() {
      return initialValue === "on" ? true : undefined;
    },
    get allErrors() {
      return original().allErrors;
    },
    get getFieldset() {
      return original().getFieldset;
    },
    get getFieldList() {
      return original().getFieldList;
    },
  };
}

/**
 * The form's metadata for a render on the server: what getFormProps and a form's component read
 * most (its ids, errors, validity) from Conform's state once, anything else read from Conform's
 * metadata once and kept (each read of Conform's builds its metadata anew). In the browser Conform's own.
 */
export function renderedForm<F extends object>(form: F): F {
  if (typeof document !== "undefined") return form;
  const context = contextOf(form as unknown as FormMetadata<Record<string, unknown>, string[]>);
  if (!context) return form;
  const id = context.getFormId();
  const state = context.getState();
  const known = new Map<string, unknown>([
    ["id", id],
    ["name", ""],
    ["errorId", `${id}-error`],
    ["descriptionId", `${id}-description`],
    ["errors", state.error[""]],
    ["valid", state.valid[""]],
    ["dirty", state.dirty[""]],
  ]);
  return new Proxy(form, {
    get(target, key, receiver) {
      if (typeof key !== "string") return Reflect.get(target, key, receiver) as unknown;
      if (!known.has(key)) known.set(key, Reflect.get(target, key, receiver));
      return known.get(key);
    },
  });
}

/**
 * `fields` as plain objects, each made once, for a render on the server; in the browser (where a
 * field's reads subscribe its component to its changes) Conform's own.
 */
export function renderedFields<F extends object>(form: FormMetadata<Record<string, unknown>, string[]>, fields: F): F {
  if (typeof document !== "undefined") return fields;
  const context = contextOf(form);
  if (!context) return fields;
  const formId = context.getFormId();
  const state = context.getState();
  const made = new Map<string, unknown>();
  return new Proxy(fields, {
    get(target, key, receiver) {
      if (typeof key !== "string") return Reflect.get(target, key, receiver) as unknown;
      let field = made.get(key);
      if (field === undefined) {
        field = plainField(formId, state, key, () => Reflect.get(target, key, receiver) as Record<string, unknown>);
        made.set(key, field);
      }
      return field;
    },
  });
}
