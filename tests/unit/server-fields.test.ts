// The fields a form renders on the server (app/components/server-fields.ts) against Conform's own
// metadata: the same attributes, so the browser hydrates what the server wrote.
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { renderedFields, renderedForm } from "../../app/components/server-fields.ts";

type Values = { line1: string; pincode: string; kind: string; note: string; same: string; tags: string[] };

function Form({
  plain,
  lastResult,
  defaultValue,
}: {
  plain: boolean;
  lastResult?: SubmissionResult<string[]>;
  defaultValue?: Partial<Values>;
}) {
  const [form, conform] = useForm<Values>({
    id: "address",
    lastResult,
    defaultValue,
    constraint: { line1: { required: true, maxLength: 80 }, pincode: { required: true, pattern: "[0-9]{6}", minLength: 6 } },
  });
  const fields = plain ? renderedFields(form as never, conform) : conform;
  const shown = plain ? renderedForm(form) : form;
  const f = fields;
  const described = { ariaDescribedBy: f.line1.descriptionId };
  return h(
    "form",
    getFormProps(shown),
    h(
      "p",
      { id: shown.errorId, "data-form": shown.id, "data-described": shown.descriptionId, "data-valid": String(shown.valid) },
      String(shown.errors ?? ""),
      String(shown.status ?? ""),
      String(shown.dirty),
      String(getFormProps(shown).noValidate),
    ),
    h("input", getInputProps(f.line1, { type: "text", ...described })),
    h("input", getInputProps(f.pincode, { type: "text" })),
    h("select", getSelectProps(f.kind), h("option", { value: "owned" }, "owned")),
    h("textarea", getTextareaProps(f.note)),
    h("input", getInputProps(f.same, { type: "checkbox" })),
    h("p", { id: f.line1.errorId, "data-key": f.line1.key }, String(f.line1.errors ?? "")),
    h("p", {
      "data-default": String(f.line1.defaultValue),
      "data-checked": String(f.same.defaultChecked),
      "data-valid": String(f.pincode.valid),
    }),
    h("p", null, JSON.stringify(f.pincode.allErrors), JSON.stringify(f.tags.defaultOptions)),
  );
}

const both = (props: { lastResult?: SubmissionResult<string[]>; defaultValue?: Partial<Values> }) => {
  const plain = renderToStaticMarkup(h(Form, { plain: true, ...props }));
  const conform = renderToStaticMarkup(h(Form, { plain: false, ...props }));
  return { plain, conform };
};

describe("a form's fields rendered on the server", () => {
  it("give the attributes Conform's metadata gives, for a form shown first with saved values", () => {
    const { plain, conform } = both({
      defaultValue: { line1: "12 MG Road", pincode: "560001", kind: "owned", note: "n", same: "on", tags: ["a", "b"] },
    });
    expect(plain).toContain('value="12 MG Road"');
    expect(plain).toContain("checked");
    expect(plain).toBe(conform);
  });

  it("and for a form the server refused, its errors and the values sent", () => {
    const lastResult: SubmissionResult<string[]> = {
      status: "error",
      initialValue: { line1: "", pincode: "12", kind: "", note: "", same: "" },
      error: { "": ["i18n:loanPay.errors.tooLate"], line1: ["i18n:validation.required"], pincode: ["i18n:validation.pincode"] },
    };
    const { plain, conform } = both({ lastResult });
    expect(plain).toContain('aria-invalid="true"');
    expect(plain).toContain("i18n:validation.required");
    expect(plain).toContain('aria-describedby="address-error"'); // the form's own error
    expect(plain).toContain("i18n:loanPay.errors.tooLate");
    expect(plain).toBe(conform);
  });

  it("are Conform's own in the browser, where reading a field subscribes its component", () => {
    const fields = { a: 1 };
    const document = {};
    Object.assign(globalThis, { document });
    try {
      expect(renderedFields({} as never, fields)).toBe(fields);
    } finally {
      Reflect.deleteProperty(globalThis, "document");
    }
  });
});
