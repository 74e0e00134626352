import { type DefaultValue, type Submission, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useNavigation } from "react-router";
import type { z } from "zod";

/**
 * A form checked in the browser by the same Zod schema the action parses it
 * with (Conform): errors appear when a field is left (or, with
 * `shouldValidate: "onSubmit"`, when the form is sent) and are re-checked as
 * the person types; the action's answer (`lastResult`) shows the server's
 * errors once the navigation is over. `schema` may depend on what is being
 * sent (a function of the form data). `busy` while the form is being sent.
 *
 * `formErrors` are the form's own errors (above its fields): the server's stay
 * until the form is sent again. Cleared when a field is left, they would take
 * their height from above the button while it is being pressed (the press
 * leaves the field), and the click would land beside the moved button.
 */
export function useSchemaForm<S extends z.ZodType<unknown, Record<string, unknown>>>({
  schema,
  lastResult,
  defaultValue,
  id,
  shouldValidate = "onBlur",
}: {
  schema: S | ((formData: FormData) => z.ZodType);
  lastResult: SubmissionResult<string[]> | null | undefined;
  defaultValue?: DefaultValue<z.input<S>>;
  id?: string;
  shouldValidate?: "onBlur" | "onSubmit";
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm<z.input<S>, z.output<S>>({
    id,
    lastResult: navigation.state === "idle" ? lastResult : null,
    defaultValue,
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: typeof schema === "function" ? schema(formData) : schema }) as Submission<
        z.input<S>,
        string[],
        z.output<S>
      >,
    shouldValidate,
    shouldRevalidate: "onInput",
  });
  const idle = navigation.state === "idle";
  const formErrors = form.errors?.length ? form.errors : idle ? (lastResult?.error?.[""] ?? undefined) : undefined;
  return { form, fields, formErrors, busy: !idle };
}
