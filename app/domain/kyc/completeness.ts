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

  const done = (name: SectionName) => sections.find((s) => s.name === name)?.complete ?? false;
  const emiMissing = sections.filter((s) => !s.complete).map((s) => s.name);

  const saMissing: string[] = [];
  for (const name of ["Profile", "Address", "Bank", "Selfie"] as const) if (!done(name)) saMissing.push(name);
  if (f.employmentType !== "salaried") saMissing.push("Employment (salaried)");
  else if (!done("Employment")) saMissing.push("Employment");
  const saDocs: DocumentKind[] = ["pan_card", "aadhaar_front", "aadhaar_back", "salary_slip_1"];
  for (const k of saDocs) if (!f.documents.includes(k)) saMissing.push(DOCUMENT_KINDS[k]);

  return {
    sections,
    completeCount: sections.filter((s) => s.complete).length,
    emi: { ready: emiMissing.length === 0, missing: emiMissing as string[] },
    salaryAdvance: { ready: saMissing.length === 0, missing: saMissing },
  };
}
