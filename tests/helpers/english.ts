// The English a page rendered in Hindi still shows: its visible text, <title>, description and the
// words given to assistive technology (aria-label, alt, title, placeholder). The brand, the lender's
// legal details, codes and the terms docs/glossary-hi.md keeps (KFS, APR, EMI…) are allowed.
import { LANGUAGE_NAMES, LANGUAGE_SHORT, SWITCH_TO } from "../../app/i18n/languages.ts";

/** Latin words a Hindi page may show (docs/glossary-hi.md "Kept as they are"), lower-cased. */
export const KEPT_LATIN = new Set(
  [
    // Codes and names a Hindi page writes as they are: standards, registries, file formats, units.
    "IP",
    "CERSAI",
    "PMLA",
    "UIDAI",
    "CMS",
    "JPEG",
    "PNG",
    "MB",
    "kB",
    "AutoPay",
    "e-NACH",
    "YYYY-MM-DD",
    "token",
    // A signed document's fingerprint (SHA-256: the word stops at its digits), a bank transfer's reference, the no-dues letter.
    "SHA-",
    "UTR",
    "NOC",
    // Titles as written in a bank account's name, and the UIDAI site's menu (Download Aadhaar → Masked Aadhaar).
    "Mr",
    "Smt",
    "Download",
    "Masked",
    "KFS",
    "APR",
    "EMI",
    "EMIs",
    "GST",
    "OTP",
    "PAN",
    "KYC",
    "CKYC",
    "UPI",
    "IFSC",
    "NACH",
    "RBI",
    "NBFC",
    "CIN",
    "DLT",
    "PDF",
    "SMS",
    "JSON",
    "CSV",
    "ID",
    "DPDP",
    "e-mail",
    "Aadhaar",
    "App",
    "Android",
    "Facebook",
    "Google",
    "Play",
    "pm",
    "am",
    "English",
  ].map((w) => w.toLowerCase()),
);

const decode = (text: string) =>
  text
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)));

/** What a reader or a screen reader meets on the page, as pieces of text. */
export function readableText(html: string): string[] {
  const body = html
    .replace(/<script\b[\s\S]*?<\/script>/gi, " ")
    .replace(/<style\b[\s\S]*?<\/style>/gi, " ")
    .replace(/<svg\b[\s\S]*?<\/svg>/gi, " ")
    .replace(/<!--[\s\S]*?-->/g, "");
  const pieces: string[] = [];
  for (const m of body.matchAll(/\s(?:aria-label|alt|title|placeholder)="([^"]*)"/g)) pieces.push(decode(m[1] ?? ""));
  for (const m of body.matchAll(/<meta name="description" content="([^"]*)"/g)) pieces.push(decode(m[1] ?? ""));
  for (const text of body.replace(/<[^>]+>/g, "\n").split("\n")) {
    const t = decode(text).trim();
    if (t) pieces.push(t);
  }
  return pieces;
}

/**
 * The pieces of a Hindi page that hold English: a Latin word that is not kept, once the `allowed`
 * values (the brand, the lender's name and address, a borrower's name…), e-mail addresses, web
 * addresses and codes (SL09832942, 9000000001, HDFC0001234) are taken out.
 */
export function englishLeft(html: string, allowed: readonly string[] = []): string[] {
  const values = [...allowed, ...Object.values(SWITCH_TO), ...Object.values(LANGUAGE_NAMES), ...Object.values(LANGUAGE_SHORT)]
    .filter((v) => v.length > 0)
    .sort((a, b) => b.length - a.length);
  const left: string[] = [];
  for (const piece of readableText(html)) if (englishWords(piece, values).length > 0) left.push(piece);
  return [...new Set(left)];
}

/**
 * The English words in `text` once `values` (longest first), e-mail and web addresses, paths, codes
 * (SL09832942, ABCPE1234F, SBIN0001234) and the kept terms are taken out.
 */
export function englishWords(text: string, values: readonly string[] = []): string[] {
  let rest = text;
  for (const value of values) rest = rest.split(value).join(" ");
  rest = rest
    .replace(/[\w.+-]+@[\w.-]+/g, " ")
    .replace(/(?:https?:\/\/)?(?:[\w-]+\.)+(?:in|com|org|gov\.in)\b\S*/g, " ")
    .replace(/\/[\w/.:-]*/g, " ")
    .replace(/\b[A-Z]{2,}[0-9][A-Z0-9-]*\b/g, " ")
    .replace(/\b[A-Z]{4}0[A-Z0-9]{6}\b/g, " ");
  // A single letter is a letter named ("the fourth letter, P"), not a word.
  return (rest.match(/[A-Za-z][A-Za-z'’-]+/g) ?? []).filter((w) => !KEPT_LATIN.has(w.toLowerCase()));
}

/** A page's markup without its scripts: what it shows, not the messages its loader data carries for the browser. */
export const shownMarkup = (html: string) => html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
