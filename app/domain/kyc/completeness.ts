import { DOCUMENT_KINDS, type DocumentKind, requiredDocuments } from "./documents.ts";

/** A row-based section: true when complete, false when nothing is saved, else the fields still missing (the quick start saves some first). */
export type SectionFill = boolean | readonly RestField[];

export interface KycFacts {
  profile: SectionFill;
  kycConsent: boolean;
  address: SectionFill;
  employmentType: "salaried" | "self_employed" | null;
  /** Defaults to complete whenever the employment type is known. */
  employment?: SectionFill;
  bank: "none" | "unverified" | "verified";
  references: number;
  documents: DocumentKind[];
  selfie: boolean;
}

export const SECTION_PATHS = {
  Profile: "/User/Profile/components/Profile",
  Address: "/User/Profile/components/Address",
  Employment: "/User/Profile/components/Employment",
  Bank: "/User/Profile/components/Bank",
  Reference: "/User/Profile/components/Reference",
  Documents: "/User/Profile/components/Documents",
  Selfie: "/User/Profile/components/Selfie",
} as const;
export type SectionName = keyof typeof SECTION_PATHS;

/** How each section is named, in English (staff pages); the borrower's pages say it from the catalogue ("profile.sections"). */
export const SECTION_TITLES: Record<SectionName, string> = {
  Profile: "Personal details",
  Address: "Address",
  Employment: "Work and income",
  Bank: "Bank account",
  Reference: "References",
  Documents: "Documents",
  Selfie: "Selfie",
};

/**
 * One thing still missing, by name rather than in words, for a page to say in its language
 * ("profile.gaps", "profile.fields", "profile.documents"): `missing` and `detail` say the same in English.
 */
export type KycGap =
  | {
      what:
        | "profile"
        | "kycConsent"
        | "address"
        | "employment"
        | "bankNone"
        | "bankUnverified"
        | "references"
        | "selfie"
        | "notUploaded"
        | "salariedOnly";
    }
  | { what: "fields"; fields: readonly RestField[] }
  | { what: "document"; kind: DocumentKind };

/** One thing a loan needs from the profile: a section, or one document. */
export interface ChecklistItem {
  /** The section's name or the document's kind. */
  key: SectionName | DocumentKind;
  label: string;
  /** The salary advance's Employment item, which only a salaried job completes ("Work and income (salaried)"). */
  salaried?: boolean;
  done: boolean;
  /** Where to do it (a document's own upload box on the Documents page). */
  href: string;
  /** What is still missing, in English words (empty when done). */
  detail: string;
  /** The same, by name. */
  gaps: readonly KycGap[];
}

/** Where one document is uploaded: its box on the Documents page. */
export const documentHref = (kind: DocumentKind) => `${SECTION_PATHS.Documents}#doc-${kind}`;

export interface SectionStatus {
  name: SectionName;
  href: string;
  complete: boolean;
  /** What is missing, in English words. */
  missing: string[];
  /** The same, by name (one gap for each of `missing`). */
  gaps: KycGap[];
}

/** The fields the quick start leaves for each section's own form, as named to the borrower in English ("profile.fields" in the catalogue). */
export const PROFILE_REST = { gender: "gender", email: "e-mail", aadhaarLast4: "Aadhaar", maritalStatus: "marital status" } as const;
export const ADDRESS_REST = {
  currentLine1: "house and street",
  residenceType: "residence type",
  yearsAtAddress: "years at the address",
  permanentSame: "permanent address",
} as const;
export const EMPLOYMENT_REST = {
  employerName: "employer or business",
  designation: "designation",
  existingEmiPaise: "existing EMIs",
  monthsWithEmployer: "months with the employer",
} as const;

const FIELD_LABELS = { ...PROFILE_REST, ...ADDRESS_REST, ...EMPLOYMENT_REST };
export type RestField = keyof typeof FIELD_LABELS;

/** How complete a saved row is, by the fields its section's form adds to what the quick start saved. */
export function sectionFill<F extends RestField>(row: Record<string, unknown> | null | undefined, rest: Record<F, string>): SectionFill {
  if (!row) return false;
  const missing = (Object.keys(rest) as F[]).filter((key) => row[key] === null || row[key] === undefined);
  return missing.length ? missing : true;
}

type Gap = KycGap["what"];
/** What a section lacks, in English words and by name. */
interface Lacks {
  missing: string[];
  gaps: KycGap[];
}
const lacks = (...items: [words: string, gap: KycGap][]): Lacks => ({ missing: items.map(([w]) => w), gaps: items.map(([, g]) => g) });
const gap = (what: Exclude<Gap, "fields" | "document">): KycGap => ({ what }) as KycGap;
const fillGaps = (fill: SectionFill, none: string, noneGap: Exclude<Gap, "fields" | "document">): [string, KycGap][] =>
  fill === true
    ? []
    : fill === false
      ? [[none, gap(noneGap)]]
      : [[fill.map((f) => FIELD_LABELS[f]).join(", "), { what: "fields", fields: fill }]];

/** The documents a salary advance needs. */
export const SALARY_ADVANCE_DOCUMENTS: readonly DocumentKind[] = ["pan_card", "aadhaar_front", "aadhaar_back", "salary_slip_1"];

/** What each section still lacks, and whether each loan kind can be applied for (docs/product.md "KYC profile"). */
export function kycCompleteness(f: KycFacts) {
  const docsNeeded = requiredDocuments(f.employmentType);
  const missingDocs = docsNeeded.filter((k) => !f.documents.includes(k));
  const lacking: Record<SectionName, Lacks> = {
    Profile: lacks(
      ...fillGaps(f.profile, "personal details, PAN and Aadhaar", "profile"),
      ...(f.profile !== false && !f.kycConsent ? [["your consent for KYC checks", gap("kycConsent")] as [string, KycGap]] : []),
    ),
    Address: lacks(...fillGaps(f.address, "your current address", "address")),
    Employment: lacks(...fillGaps(f.employment ?? f.employmentType !== null, "your work and income", "employment")),
    Bank:
      f.bank === "verified"
        ? lacks()
        : f.bank === "unverified"
          ? lacks(["a verified account (the name at the bank must match your profile)", gap("bankUnverified")])
          : lacks(["your bank account", gap("bankNone")]),
    Reference: f.references >= 2 ? lacks() : lacks(["two references", gap("references")]),
    Documents: lacks(...missingDocs.map((kind): [string, KycGap] => [DOCUMENT_KINDS[kind], { what: "document", kind }])),
    Selfie: f.selfie ? lacks() : lacks(["a selfie", gap("selfie")]),
  };
  const sections: SectionStatus[] = (Object.keys(SECTION_PATHS) as SectionName[]).map((name) => ({
    name,
    ...lacking[name],
    href: SECTION_PATHS[name],
    complete: lacking[name].missing.length === 0,
  }));

  const section = (name: SectionName) => sections.find((s) => s.name === name) as SectionStatus;
  const sectionItem = (name: SectionName): ChecklistItem => {
    const s = section(name);
    return { key: name, label: SECTION_TITLES[name], done: s.complete, href: s.href, detail: s.missing.join("; "), gaps: s.gaps };
  };
  const documentItem = (kind: DocumentKind): ChecklistItem => {
    const done = f.documents.includes(kind);
    return {
      key: kind,
      label: DOCUMENT_KINDS[kind],
      done,
      href: documentHref(kind),
      detail: done ? "" : "not uploaded yet",
      gaps: done ? [] : [gap("notUploaded")],
    };
  };
  // An EMI loan: the six sections besides Documents, and each document the borrower's work asks for.
  const emi = [
    ...(["Profile", "Address", "Employment", "Bank", "Reference", "Selfie"] as const).map(sectionItem),
    ...docsNeeded.map(documentItem),
  ];
  // A salary advance: no references, and only the first documents (it is repaid from the next salary).
  const employment = sectionItem("Employment");
  const salaried = f.employmentType === "salaried";
  const selfEmployed = f.employmentType === "self_employed";
  const salaryAdvance = [
    ...(["Profile", "Address"] as const).map(sectionItem),
    {
      ...employment,
      label: `${SECTION_TITLES.Employment} (salaried)`,
      salaried: true,
      done: employment.done && salaried,
      detail: selfEmployed ? "a salary advance is for salaried people" : employment.detail,
      gaps: selfEmployed ? [gap("salariedOnly")] : employment.gaps,
    },
    ...(["Bank", "Selfie"] as const).map(sectionItem),
    ...SALARY_ADVANCE_DOCUMENTS.map(documentItem),
  ];
  const summary = (items: ChecklistItem[]) => ({
    ready: items.every((i) => i.done),
    missing: items.filter((i) => !i.done).map((i) => i.label),
    checklist: items,
  });
  return {
    sections,
    completeCount: sections.filter((s) => s.complete).length,
    emi: summary(emi),
    salaryAdvance: summary(salaryAdvance),
  };
}
