// What the two form hooks share (use-schema-form.ts, use-lazy-schema-form.ts): Conform's form, checked
// in the browser by whatever `check` holds when a field is left or the form is sent.
import { type DefaultValue, type Submission, type SubmissionResult, useForm } from "@conform-to/react";
import type { RefObject } from "react";
import { useNavigation } from "react-router";
import type { z } from "zod";
import { renderedFields, renderedForm } from "./server-fields.ts";

/** A form's schema, or a function of what is being sent that picks one. */
export type FormSchema<S extends z.ZodType> = S | ((formData: FormData) => z.ZodType);

export type FormCheck = (formData: FormData) => Submission<unknown, string[], unknown>;

export interface SchemaFormOptions<S extends z.ZodType> {
  lastResult: SubmissionResult<string[]> | null | undefined;
  defaultValue?: DefaultValue<z.input<S>>;
  id?: string;
  shouldValidate?: "onBlur" | "onSubmit";
}

/** The schema that applies to what is being sent. */
export const schemaFor = (schema: FormSchema<z.ZodType>, formData: FormData) => (typeof schema === "function" ? schema(formData) : schema);

/**
 * Errors appear when a field is left (or, with `shouldValidate: "onSubmit"`, when the form is
 * sent) and are re-checked as the person types; the action's answer (`lastResult`) shows the
 * server's errors once the navigation is over. `busy` while the form is being sent.
 *
 * `formErrors` are the form's own errors (above its fields): the server's stay
 * until the form is sent again. Cleared when a field is left, they would take
 * their height from above the button while it is being pressed (the press
 * leaves the field), and the click would land beside the moved button.
 */
export function useCheckedForm<S extends z.ZodType<unknown, Record<string, unknown>>>(
  check: RefObject<FormCheck>,
  { lastResult, defaultValue, id, shouldValidate = "onBlur" }: SchemaFormOptions<S>,
) {
  const navigation = useNavigation();
  const [form, fields] = useForm<z.input<S>, z.output<S>>({
    id,
    lastResult: navigation.state === "idle" ? lastResult : null,
    defaultValue,
    onValidate: ({ formData }) => check.current(formData) as Submission<z.input<S>, string[], z.output<S>>,
    shouldValidate,
    shouldRevalidate: "onInput",
  });
  const idle = navigation.state === "idle";
  const formErrors = form.errors?.length ? form.errors : idle ? (lastResult?.error?.[""] ?? undefined) : undefined;
  return { form: renderedForm(form), fields: renderedFields(form as never, fields), formErrors, busy: !idle };
}
