import type { FieldMetadata } from "@conform-to/react";
import { useTranslations } from "../i18n/use-translations.ts";
import { useLookup } from "../lib/use-lookup.ts";
import { TextField } from "./field.tsx";

export interface Place {
  city: string;
  district: string;
  state: string;
}

const pinUrl = (pin: string) => `/api/pincode/${pin}`;
/** The place as the shipped data names it (its names are the same in every language). */
const placeText = (p: Place) => `${p.city}, ${p.district}, ${p.state}`;

/** A PIN code input that names the place as it is typed (and the saved place before, without JavaScript). Its words are the validation namespace's, which every page has. */
export function PinCodeField({ field, label, saved }: { field: FieldMetadata<string | undefined>; label?: string; saved: Place | null }) {
  const t = useTranslations("validation");
  const place = useLookup<Place>(String(field.value ?? ""), /^[1-9]\d{5}$/, pinUrl);
  const hint = place === "unknown" ? t("pinCode.unknown") : place ? placeText(place) : saved ? placeText(saved) : t("pinCode.hint");
  return (
    <TextField
      field={field}
      label={label ?? t("pinCode.label")}
      hint={<span aria-live="polite">{hint}</span>}
      inputMode="numeric"
      autoComplete="postal-code"
      maxLength={6}
    />
  );
}
