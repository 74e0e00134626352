import type { FieldMetadata } from "@conform-to/react";
import { useLookup } from "../lib/use-lookup.ts";
import { TextField } from "./field.tsx";

export interface Place {
  city: string;
  district: string;
  state: string;
}

const pinUrl = (pin: string) => `/api/pincode/${pin}`;
const placeText = (p: Place) => `${p.city}, ${p.district}, ${p.state}`;

/** A PIN code input that names the place as it is typed (and the saved place before, without JavaScript). */
export function PinCodeField({
  field,
  label = "PIN code",
  saved,
}: {
  field: FieldMetadata<string | undefined>;
  label?: string;
  saved: Place | null;
}) {
  const place = useLookup<Place>(String(field.value ?? ""), /^[1-9]\d{5}$/, pinUrl);
  const hint =
    place === "unknown"
      ? "We do not know this PIN code. Check the 6 digits."
      : place
        ? placeText(place)
        : saved
          ? placeText(saved)
          : "We fill in the city, district and state from it.";
  return (
    <TextField
      field={field}
      label={label}
      hint={<span aria-live="polite">{hint}</span>}
      inputMode="numeric"
      autoComplete="postal-code"
      maxLength={6}
    />
  );
}
