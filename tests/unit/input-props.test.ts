// Our getInputProps (app/components/input-props.ts) gives Conform's getInputProps's props, in its
// order (the order of the element's attributes), for fields with and without errors, constraints
// and initial values, and each of its options.
import { getInputProps as conformInputProps } from "@conform-to/react";
import { describe, expect, it } from "vitest";
import { getInputProps } from "../../app/components/input-props.ts";

type Metadata = Parameters<typeof getInputProps>[0];
type Options = Parameters<typeof getInputProps>[1];

const base = { id: "f-amount", name: "amount", formId: "f", errorId: "f-amount-error" };
const METADATA: Metadata[] = [
  { ...base, errors: undefined, valid: true, initialValue: undefined } as Metadata,
  { ...base, errors: ["Enter an amount."], valid: false, initialValue: "100", required: true } as Metadata,
  { ...base, errors: undefined, valid: false, initialValue: "on", required: false, minLength: 2, maxLength: 9 } as Metadata,
  {
    ...base,
    errors: [],
    valid: true,
    initialValue: ["a", "b"],
    min: "2026-01-01",
    max: 10,
    step: 1,
    pattern: "\\d+",
    multiple: true,
  } as Metadata,
  { ...base, errors: undefined, valid: true, initialValue: "b", accept: "image/*" } as Metadata,
  { ...base, errors: undefined, valid: true, initialValue: { nested: 1 } } as unknown as Metadata,
];
const OPTIONS: Options[] = [
  { type: "text" },
  { type: "text", ariaDescribedBy: "f-amount-description" },
  { type: "email", ariaAttributes: false },
  { type: "text", ariaAttributes: true, ariaInvalid: "allErrors" },
  { type: "text", value: false },
  { type: "checkbox" },
  { type: "checkbox", value: "b" },
  { type: "radio", value: "a", ariaDescribedBy: "x" },
  { type: "radio", value: false },
  { type: "date", ariaInvalid: "errors" },
  { type: "file" },
  { type: "number", value: true },
] as Options[];

describe("our getInputProps", () => {
  it("gives Conform's props in Conform's order", () => {
    let compared = 0;
    for (const metadata of METADATA)
      for (const options of OPTIONS) {
        const theirs = conformInputProps(metadata as never, options);
        expect(Object.entries(getInputProps(metadata, options)), JSON.stringify({ metadata, options })).toEqual(Object.entries(theirs));
        compared++;
      }
    expect(compared).toBe(METADATA.length * OPTIONS.length);
  });
});
