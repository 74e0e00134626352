import { type FieldMetadata, getInputProps } from "@conform-to/react";
import { usePublicConfig } from "../root.tsx";
import { ErrorText } from "./field.tsx";

type Checkbox = FieldMetadata<string | undefined>;

/** The two consents (docs/product.md "KYC profile"): KYC checks (needed to apply) and messages (optional), each logged when it changes. */
export function ConsentFields({ consentKyc, consentCommunications }: { consentKyc: Checkbox; consentCommunications: Checkbox }) {
  const lenderName = usePublicConfig()?.lender.name ?? "the lender";
  return (
    <fieldset className="space-y-3">
      <legend className="field-label">Consent</legend>
      <div>
        <label className="flex items-start gap-3">
          <input className="mt-0.5 size-5 shrink-0" required {...getInputProps(consentKyc, { type: "checkbox" })} />
          <span>I consent to {lenderName} checking my identity and KYC details with the documents I give, for my loan application.</span>
        </label>
        <p id={consentKyc.errorId} className="field-error" aria-live="polite">
          <ErrorText errors={consentKyc.errors} />
        </p>
      </div>
      <label className="flex items-start gap-3">
        <input className="mt-0.5 size-5 shrink-0" {...getInputProps(consentCommunications, { type: "checkbox" })} />
        <span>
          Send me reminders before and on a due date, and updates such as a credit check's answer, by SMS, e-mail and push (optional).
          Messages my loan needs come anyway.
        </span>
      </label>
    </fieldset>
  );
}

/** The credit bureau enquiry's consent box (docs/product.md "Credit policy"), with what it means. */
export function BureauConsentField({ field }: { field: Checkbox }) {
  const lenderName = usePublicConfig()?.lender.name ?? "the lender";
  return (
    <div>
      <label className="flex items-start gap-3">
        <input className="mt-0.5 size-5 shrink-0" required {...getInputProps(field, { type: "checkbox" })} />
        <span>
          I agree that {lenderName} may check my PAN and my credit history with a credit bureau to make me an offer. This is a soft enquiry:
          it does not lower my credit score.
        </span>
      </label>
      <p id={field.errorId} className="field-error" aria-live="polite">
        <ErrorText errors={field.errors} />
      </p>
    </div>
  );
}
