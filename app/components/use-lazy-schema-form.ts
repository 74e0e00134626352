import { parse } from "@conform-to/react";
import { useEffect, useRef } from "react";
import type { z } from "zod";
import { type FormCheck, type FormSchema, schemaFor, type SchemaFormOptions, useCheckedForm } from "./schema-form.ts";

/** Until the checks are there: what the form holds, unchecked (a submit goes to the server, which checks it). */
const unchecked: FormCheck = (formData) => parse(formData, { resolve: (value) => ({ value }) });

const TOUCH = ["focusin", "pointerdown", "keydown"] as const;

/**
 * useSchemaForm for a public page's form, with its schema loaded when the form is first touched (a
 * focus, a tap, a key): the schema's module, Zod and Conform's Zod adapter (about 26 kB compressed)
 * stay off the page for a visitor who never fills it in. A field left before they arrived is checked
 * once they have; a form sent before then is checked by the server, as without JavaScript.
 *
 * `useLazySchemaForm({ schema: () => import("../../domain/contact.ts").then((m) => m.contactSchema), … })`;
 * the action imports the same schema as usual.
 */
export function useLazySchemaForm<S extends z.ZodType<unknown, Record<string, unknown>>>({
  schema,
  ...options
}: SchemaFormOptions<S> & { schema: () => Promise<FormSchema<S>> }) {
  const check = useRef<FormCheck>(unchecked);
  const result = useCheckedForm<S>(check, options);
  const { id } = result.form;
  // The latest render's schema loader and Conform's validate, for the listeners below.
  const latest = useRef({ schema, validate: result.form.validate });
  useEffect(() => {
    latest.current = { schema, validate: result.form.validate };
  });
  const onBlur = (options.shouldValidate ?? "onBlur") === "onBlur";

  useEffect(() => {
    if (check.current !== unchecked) return;
    // Listened for on the document, for whichever element is this form now (a form shown later, or
    // replaced by the page, is still this form).
    const inForm = (event: Event) => {
      const target = event.target;
      if (!(target instanceof Element)) return null;
      const form = target.closest("form");
      return form && form.id === id ? target : null;
    };
    const left = new Set<string>();
    let loading = false;
    let gone = false;
    const noteLeft = (event: Event) => {
      const name = (inForm(event) as { name?: unknown } | null)?.name;
      if (typeof name === "string" && name) left.add(name);
    };
    const stop = () => {
      document.removeEventListener("focusout", noteLeft);
      for (const type of TOUCH) document.removeEventListener(type, start);
    };
    function start(event: Event) {
      if (loading || !inForm(event)) return;
      loading = true;
      Promise.all([import("../lib/zod-form.ts"), latest.current.schema()])
        .then(([{ parseWithZod }, loaded]) => {
          if (gone) return;
          check.current = (formData) => parseWithZod(formData, { schema: schemaFor(loaded, formData) });
          stop();
          // Fields left before the checks arrived, checked now (as leaving them would have), while the form is there.
          if (onBlur && document.getElementById(id)) for (const name of left) latest.current.validate({ name });
        })
        .catch(() => {
          // Offline, or a new version deployed: the server still checks what is sent; try again on the next touch.
          loading = false;
        });
    }
    document.addEventListener("focusout", noteLeft);
    for (const type of TOUCH) document.addEventListener(type, start);
    return () => {
      gone = true;
      stop();
    };
  }, [id, onBlur]);

  return result;
}
