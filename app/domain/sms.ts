// How an SMS goes over the network (3GPP TS 23.038): in the GSM 7-bit alphabet, 160 characters in
// one part and 153 a part when it is split; a text with any character outside it (Devanagari, "₹")
// goes as Unicode (UCS-2), 70 characters in one part and 67 a part when split. Characters outside
// the basic plane count twice in UCS-2; the GSM extension characters (€ [ ] { } \ ~ ^ |) twice in GSM.

const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM_EXTENSION = "^{}\\[~]|€\f";

export type SmsEncoding = "gsm7" | "ucs2";

/** The encoding a text needs: GSM 7-bit when every character is in its alphabet, else UCS-2. */
export function smsEncoding(text: string): SmsEncoding {
  for (const ch of text) if (!GSM_BASIC.includes(ch) && !GSM_EXTENSION.includes(ch)) return "ucs2";
  return "gsm7";
}

/** The text's length as the network counts it: septets in GSM 7-bit, 16-bit units in UCS-2. */
export function smsUnits(text: string, encoding: SmsEncoding = smsEncoding(text)): number {
  if (encoding === "ucs2") return text.length;
  let units = 0;
  for (const ch of text) units += GSM_EXTENSION.includes(ch) ? 2 : 1;
  return units;
}

/** How many parts (each billed as one SMS) the text goes in. */
export function smsParts(text: string): { encoding: SmsEncoding; units: number; parts: number } {
  const encoding = smsEncoding(text);
  const units = smsUnits(text, encoding);
  const [single, each] = encoding === "ucs2" ? [70, 67] : [160, 153];
  return { encoding, units, parts: units === 0 ? 1 : units <= single ? 1 : Math.ceil(units / each) };
}
