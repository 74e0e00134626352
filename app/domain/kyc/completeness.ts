import { DOCUMENT_KINDS, type DocumentKind, requiredDocuments } from "./documents.ts";

export interface KycFacts {
  profile: boolean;
  kycConsent: boolean;
  address: boolean;
  employmentType: "salaried" | "self_employed" | null;
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

/** What each section still lacks, and whether each loan kind can be applied for (PRODUCT.md §8). */
export function kycCompleteness(f: KycFacts) {
  const docsNeeded = requiredDocuments(f.employmentType);
  const missingDocs = docsNeeded.filter((k) => !f.documents.includes(k)).map((k) => DOCUMENT_KINDS[k]);
  const sections: SectionStatus[] = [
    { name: "Profile", missing: [...(f.profile ? [] : ["personal details, PAN and Aadhaar"]), ...(f.profile && !f.kycConsent ? ["your consent for KYC checks"] : [])] },
    { name: "Address", missing: f.address ? [] : ["your current address"] },
    { name: "Employment", missing: f.employmentType ? [] : ["your work and income"] },
    { name: "Bank", missing: f.bank === "verified" ? [] : f.bank === "unverified" ? ["a verified account (the name at the bank must match your profile)"] : ["your bank account"] },
    { name: "Reference", missing: f.references >= 2 ? [] : ["two references"] },
    { name: "Documents", missing: missingDocs },
    { name: "Selfie", missing: f.selfie ? [] : ["a selfie"] },
  ].map((s) => ({ ...s, name: s.name as SectionName, href: SECTION_PATHS[s.name as SectionName], complete: s.missing.length === 0 }));

  const done = (name: SectionName) => sections.find((s) => s.name === name)?.complete ?? false;
  const emiMissing = sections.filter((s) => !s.complete).map((s) => s.name);

  const saMissing: string[] = [];
  for (const name of ["Profile", "Address", "Bank", "Selfie"] as const) if (!done(name)) saMissing.push(name);
  if (f.employmentType !== "salaried") saMissing.push("Employment (salaried)");
  const saDocs: DocumentKind[] = ["pan_card", "aadhaar_front", "aadhaar_back", "salary_slip_1"];
  for (const k of saDocs) if (!f.documents.includes(k)) saMissing.push(DOCUMENT_KINDS[k]);

  return {
    sections,
    completeCount: sections.filter((s) => s.complete).length,
    emi: { ready: emiMissing.length === 0, missing: emiMissing as string[] },
    salaryAdvance: { ready: saMissing.length === 0, missing: saMissing },
  };
}
