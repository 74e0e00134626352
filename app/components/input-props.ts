// Conform's getInputProps (1.21), written as one object built in its order: the same props, in the
// same order (so the same attributes), without Conform's four object spreads and its deletes of the
// props left undefined (a deleted property turns an object into a slow dictionary, which React then
// walks to write the element). A form page writes twenty or more inputs.
import type { FieldMetadata, getInputProps as conformInputProps } from "@conform-to/react";

type InputOptions = Parameters<typeof conformInputProps>[1];
type Metadata = Pick<
  FieldMetadata<unknown>,
  | "id"
  | "name"
  | "formId"
  | "errorId"
  | "errors"
  | "valid"
  | "required"
  | "minLength"
  | "maxLength"
  | "min"
  | "max"
  | "step"
  | "pattern"
  | "multiple"
  | "accept"
  | "initialValue"
>;

/** Conform's getInputProps(metadata, options): its props, in its order. */
export function getInputProps(metadata: Metadata, options: InputOptions): ReturnType<typeof conformInputProps> {
  const props: Record<string, unknown> = {};
  const set = (name: string, value: unknown) => {
    if (value !== undefined) props[name] = value;
  };
  set("required", metadata.required || undefined);
  set("id", metadata.id);
  set("name", metadata.name);
  set("form", metadata.formId);
  if (options.ariaAttributes === undefined || options.ariaAttributes) {
    const invalid = options.ariaInvalid === "allErrors" ? !metadata.valid : metadata.errors !== undefined;
    const describedBy = options.ariaDescribedBy;
    set("aria-invalid", invalid || undefined);
    set("aria-describedby", invalid ? `${metadata.errorId} ${describedBy ?? ""}`.trim() : describedBy);
  }
  set("type", options.type);
  set("minLength", metadata.minLength);
  set("maxLength", metadata.maxLength);
  set("min", metadata.min);
  set("max", metadata.max);
  set("step", metadata.step);
  set("pattern", metadata.pattern);
  set("multiple", metadata.multiple);
  set("accept", metadata.accept);
  if (options.value === undefined || options.value) {
    if (options.type === "checkbox" || options.type === "radio") {
      const value = typeof options.value === "string" ? options.value : "on";
      props.value = value;
      props.defaultChecked = Array.isArray(metadata.initialValue)
        ? metadata.initialValue.includes(options.value)
        : metadata.initialValue === value;
    } else if (typeof metadata.initialValue === "string") {
      props.defaultValue = metadata.initialValue;
    }
  }
  return props as ReturnType<typeof conformInputProps>;
}
