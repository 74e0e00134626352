import { DOCUMENT_KINDS, type DocumentKind, requiredDocuments } from "./documents.ts";

/** A row-based section: true when complete, false when nothing is saved, else the fields still missing (the quick start saves some first). */
export type SectionFill = boolean | readonly string[];

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

/** How each section is named to the borrower. */
export const SECTION_TITLES: Record<SectionName, string> = {
  Profile: "Personal details",
  Address: "Address",
  Employment: "Work and income",
  Bank: "Bank account",
  Reference: "References",
  Documents: "Documents",
  Selfie: "Selfie",
};

/** One thing a loan needs from the profile: a section, or one document. */
export interface ChecklistItem {
  key: string;
  label: string;
  done: boolean;
  /** Where to do it (a document's own upload box on the Documents page). */
  href: string;
  /** What is still missing, in words (empty when done). */
  detail: string;
}

/** Where one document is uploaded: its box on the Documents page. */
export const documentHref = (kind: DocumentKind) => `${SECTION_PATHS.Documents}#doc-${kind}`;

export interface SectionStatus {
  name: SectionName;
  href: string;
  complete: boolean;
  missing: string[];
}

/** The fields the quick start leaves for each section's own form, as named to the borrower. */
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

/** How complete a saved row is, by the fields its section's form adds to what the quick start saved. */
export function sectionFill(row: Record<string, unknown> | null | undefined, rest: Record<string, string>): SectionFill {
  if (!row) return false;
  const missing = Object.entries(rest)
    .filter(([key]) => row[key] === null || row[key] === undefined)
    .map(([, label]) => label);
  return missing.length ? missing : true;
}

const gaps = (fill: SectionFill, none: string) => (fill === true ? [] : fill === false ? [none] : [fill.join(", ")]);

/** The documents a salary advance needs. */
export const SALARY_ADVANCE_DOCUMENTS: readonly DocumentKind[] = ["pan_card", "aadhaar_front", "aadhaar_back", "salary_slip_1"];

/** What each section still lacks, and whether each loan kind can be applied for (docs/product.md "KYC profile"). */
export function kycCompleteness(f: KycFacts) {
  const docsNeeded = requiredDocuments(f.employmentType);
  const missingDocs = docsNeeded.filter((k) => !f.documents.includes(k)).map((k) => DOCUMENT_KINDS[k]);
  const sections: SectionStatus[] = [
    {
      name: "Profile",
      missing: [
        ...gaps(f.profile, "personal details, PAN and Aadhaar"),
        ...(f.profile !== false && !f.kycConsent ? ["your consent for KYC checks"] : []),
      ],
    },
    { name: "Address", missing: gaps(f.address, "your current address") },
    { name: "Employment", missing: gaps(f.employment ?? f.employmentType !== null, "your work and income") },
    {
      name: "Bank",
      missing:
        f.bank === "verified"
          ? []
          : f.bank === "unverified"
            ? ["a verified account (the name at the bank must match your profile)"]
            : ["your bank account"],
    },
    { name: "Reference", missing: f.references >= 2 ? [] : ["two references"] },
    { name: "Documents", missing: missingDocs },
    { name: "Selfie", missing: f.selfie ? [] : ["a selfie"] },
  ].map((s) => ({ ...s, name: s.name as SectionName, href: SECTION_PATHS[s.name as SectionName], complete: s.missing.length === 0 }));

  const section = (name: SectionName) => sections.find((s) => s.name === name) as SectionStatus;
  const sectionItem = (name: SectionName): ChecklistItem => {
    const s = section(name);
    return { key: name, label: SECTION_TITLES[name], done: s.complete, href: s.href, detail: s.missing.join("; ") };
  };
  const documentItem = (kind: DocumentKind): ChecklistItem => {
    const done = f.documents.includes(kind);
    return { key: kind, label: DOCUMENT_KINDS[kind], done, href: documentHref(kind), detail: done ? "" : "not uploaded yet" };
  };
  // An EMI loan: the six sections besides Documents, and each document the borrower's work asks for.
  const emi = [
    ...(["Profile", "Address", "Employment", "Bank", "Reference", "Selfie"] as const).map(sectionItem),
    ...docsNeeded.map(documentItem),
  ];
  // A salary advance: no references, and only the first documents (it is repaid from the next salary).
  const employment = sectionItem("Employment");
  const salaried = f.employmentType === "salaried";
  const salaryAdvance = [
    ...(["Profile", "Address"] as const).map(sectionItem),
    {
      ...employment,
      label: `${SECTION_TITLES.Employment} (salaried)`,
      done: employment.done && salaried,
      detail: f.employmentType === "self_employed" ? "a salary advance is for salaried people" : employment.detail,
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
