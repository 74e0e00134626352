import { type FieldMetadata } from "@conform-to/react";
import { getInputProps } from "./input-props.ts";
import { useTranslations } from "../i18n/use-translations.ts";
import { usePublicConfig } from "../root.tsx";
import { ErrorText } from "./field.tsx";

type Checkbox = FieldMetadata<string | undefined>;

// Their words are the validation namespace's, which every page has (the quick start shows them too).

/** The two consents (docs/product.md "KYC profile"): KYC checks (needed to apply) and messages (optional), each logged when it changes. */
export function ConsentFields({ consentKyc, consentCommunications }: { consentKyc: Checkbox; consentCommunications: Checkbox }) {
  const t = useTranslations("validation");
  const lender = usePublicConfig()?.lender.name ?? "";
  return (
    <fieldset className="space-y-3">
      <legend className="field-label">{t("consent.legend")}</legend>
      <div>
        <label className="flex items-start gap-3">
          <input className="mt-0.5 size-5 shrink-0" required {...getInputProps(consentKyc, { type: "checkbox" })} />
          <span>{t("consent.kyc", { lender })}</span>
        </label>
        <p id={consentKyc.errorId} className="field-error" aria-live="polite">
          <ErrorText errors={consentKyc.errors} />
        </p>
      </div>
      <label className="flex items-start gap-3">
        <input className="mt-0.5 size-5 shrink-0" {...getInputProps(consentCommunications, { type: "checkbox" })} />
        <span>{t("consent.communications")}</span>
      </label>
    </fieldset>
  );
}

/** The credit bureau enquiry's consent box (docs/product.md "Credit policy"), with what it means. */
export function BureauConsentField({ field }: { field: Checkbox }) {
  const t = useTranslations("validation");
  const lender = usePublicConfig()?.lender.name ?? "";
  return (
    <div>
      <label className="flex items-start gap-3">
        <input className="mt-0.5 size-5 shrink-0" required {...getInputProps(field, { type: "checkbox" })} />
        <span>{t("consent.bureau", { lender })}</span>
      </label>
      <p id={field.errorId} className="field-error" aria-live="polite">
        <ErrorText errors={field.errors} />
      </p>
    </div>
  );
}
