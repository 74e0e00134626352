import { parseWithZod } from "@conform-to/zod/v4";
import { useLayoutEffect, useRef } from "react";
import type { z } from "zod";
import { type FormCheck, type FormSchema, schemaFor, type SchemaFormOptions, useCheckedForm } from "./schema-form.ts";

const checkWith =
  (schema: FormSchema<z.ZodType>): FormCheck =>
  (formData) =>
    parseWithZod(formData, { schema: schemaFor(schema, formData) });

/**
 * A form checked in the browser by the same Zod schema the action parses it with (Conform), from
 * the moment the page is interactive. `schema` may depend on what is being sent (a function of the
 * form data). A public page's form whose visitors may never use it takes useLazySchemaForm instead.
 */
export function useSchemaForm<S extends z.ZodType<unknown, Record<string, unknown>>>({
  schema,
  ...options
}: SchemaFormOptions<S> & { schema: FormSchema<S> }) {
  const check = useRef(checkWith(schema));
  // The schema of the latest render (a route may pass a new function each time), in place before
  // the browser paints it, so an event on the updated page is checked by its own schema.
  useLayoutEffect(() => {
    check.current = checkWith(schema);
  });
  return useCheckedForm<S>(check, options);
}

export { type KeyedActionData, resultFor } from "../lib/keyed-form.ts";
