import { msg } from "../../i18n/form-message.ts";

/**
 * The documents each borrower uploads (docs/product.md "KYC profile"), by employment type: their
 * English names, as staff pages read them; the borrower's pages say them from the catalogue
 * ("profile.documents.<kind>").
 */
export const DOCUMENT_KINDS = {
  pan_card: "PAN card",
  aadhaar_front: "Aadhaar, front (masked)",
  aadhaar_back: "Aadhaar, back (masked)",
  salary_slip_1: "Salary slip, latest month",
  salary_slip_2: "Salary slip, month before",
  salary_slip_3: "Salary slip, two months before",
  itr_1: "Income-tax return, latest year",
  itr_2: "Income-tax return, year before",
  bank_statement: "Bank statement",
  selfie: "Selfie",
} as const;
export type DocumentKind = keyof typeof DOCUMENT_KINDS;

export function requiredDocuments(employmentType: "salaried" | "self_employed" | null): DocumentKind[] {
  const common: DocumentKind[] = ["pan_card", "aadhaar_front", "aadhaar_back"];
  return employmentType === "self_employed"
    ? [...common, "itr_1", "itr_2", "bank_statement"]
    : [...common, "salary_slip_1", "salary_slip_2", "salary_slip_3", "bank_statement"];
}

export const bankStatementMonths = (employmentType: "salaried" | "self_employed" | null) => (employmentType === "self_employed" ? 6 : 3);

export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
export const MAX_SELFIE_BYTES = 2 * 1024 * 1024;

/** What a borrower is told, in the browser and from the server alike, when a file is over `maxBytes` (a message key). */
export const fileTooLargeMessage = (maxBytes: number) =>
  msg("profileSections.upload.tooLarge", { mb: String(Math.round(maxBytes / 1024 / 1024)) });

export type SniffedType = "image/jpeg" | "image/png" | "application/pdf";
const EXTENSIONS: Record<SniffedType, string[]> = {
  "image/jpeg": ["jpg", "jpeg"],
  "image/png": ["png"],
  "application/pdf": ["pdf"],
};
export const extensionFor = (type: SniffedType) => EXTENSIONS[type][0] as string;
/** What a KYC document may be: a photo or a scan. */
export const DOCUMENT_TYPES: readonly SniffedType[] = ["image/jpeg", "image/png", "application/pdf"];

/**
 * Judges a file by its bytes: JPEG, PNG or PDF, complete (JPEG ends FF D9, PNG
 * with its IEND chunk, PDF with %%EOF), and a name that does not claim another type. A refusal's
 * message is a key of the catalogue (app/i18n/form-message.ts).
 */
export function judgeFile(
  { head, tail, size, name }: { head: Uint8Array; tail: Uint8Array; size: number; name: string },
  allowed: readonly SniffedType[],
): { ok: true; type: SniffedType } | { ok: false; message: string } {
  if (size === 0) return { ok: false, message: msg("profileSections.upload.empty") };
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  const tailText = new TextDecoder("latin1").decode(tail);
  let type: SniffedType | null = null;
  if (starts(0xff, 0xd8, 0xff)) type = "image/jpeg";
  else if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) type = "image/png";
  else if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) type = "application/pdf";
  if (!type || !allowed.includes(type)) {
    // The names are codes ("JPG, PNG"), the same in every language; "or" is the message's own word.
    const names = allowed.map((t) => extensionFor(t).toUpperCase());
    const message =
      names.length > 1
        ? msg("profileSections.upload.notTypes", { kinds: names.slice(0, -1).join(", "), last: names.at(-1) ?? "" })
        : msg("profileSections.upload.notType", { kind: names[0] ?? "" });
    return { ok: false, message };
  }
  const complete =
    type === "image/jpeg"
      ? tail[tail.length - 2] === 0xff && tail[tail.length - 1] === 0xd9
      : type === "image/png"
        ? tailText.includes("IEND")
        : tailText.includes("%%EOF");
  if (!complete) return { ok: false, message: msg("profileSections.upload.incomplete") };
  const ext = name.toLowerCase().split(".").pop() ?? "";
  const claimed = (Object.keys(EXTENSIONS) as SniffedType[]).find((t) => EXTENSIONS[t].includes(ext));
  if (claimed && claimed !== type) {
    return {
      ok: false,
      message: msg("profileSections.upload.misnamed", { ext, type: extensionFor(type).toUpperCase() }),
    };
  }
  return { ok: true, type };
}
