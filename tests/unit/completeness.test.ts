import { describe, expect, it } from "vitest";
import { type KycFacts, kycCompleteness } from "../../app/domain/kyc/completeness.ts";

const complete: KycFacts = {
  profile: true,
  kycConsent: true,
  address: true,
  employmentType: "salaried",
  bank: "verified",
  references: 2,
  documents: ["pan_card", "aadhaar_front", "aadhaar_back", "salary_slip_1", "salary_slip_2", "salary_slip_3", "bank_statement"],
  selfie: true,
};

describe("KYC completeness", () => {
  it("is ready for both loans when all seven sections are complete", () => {
    const result = kycCompleteness(complete);
    expect(result.completeCount).toBe(7);
    expect(result.emi.ready && result.salaryAdvance.ready).toBe(true);
  });

  it("lets a salary advance through without references, older slips or a statement, but not an EMI loan", () => {
    const result = kycCompleteness({
      ...complete,
      references: 0,
      documents: ["pan_card", "aadhaar_front", "aadhaar_back", "salary_slip_1"],
    });
    expect(result.salaryAdvance.ready).toBe(true);
    expect(result.emi.ready).toBe(false);
    expect(result.emi.missing).toEqual(["References", "Salary slip, month before", "Salary slip, two months before", "Bank statement"]);
    expect(result.sections.find((s) => s.name === "Documents")?.missing).toEqual([
      "Salary slip, month before",
      "Salary slip, two months before",
      "Bank statement",
    ]);
  });

  it("needs a verified bank account and a salaried job for a salary advance", () => {
    const result = kycCompleteness({
      ...complete,
      bank: "unverified",
      employmentType: "self_employed",
      documents: ["pan_card", "aadhaar_front", "aadhaar_back", "itr_1", "itr_2", "bank_statement"],
    });
    expect(result.salaryAdvance.missing).toEqual(["Work and income (salaried)", "Bank account", "Salary slip, latest month"]);
    const employment = result.salaryAdvance.checklist.find((i) => i.key === "Employment");
    expect(employment).toMatchObject({ done: false, detail: "a salary advance is for salaried people" });
    expect(result.sections.find((s) => s.name === "Bank")?.missing[0]).toContain("verified");
    expect(result.sections.find((s) => s.name === "Documents")?.complete).toBe(true);
  });

  it("lists, for each loan, every section and document it needs, each linking to where it is done", () => {
    const result = kycCompleteness({ ...complete, documents: ["pan_card"], selfie: false });
    expect(result.emi.checklist.map((i) => [i.label, i.done])).toEqual([
      ["Personal details", true],
      ["Address", true],
      ["Work and income", true],
      ["Bank account", true],
      ["References", true],
      ["Selfie", false],
      ["PAN card", true],
      ["Aadhaar, front (masked)", false],
      ["Aadhaar, back (masked)", false],
      ["Salary slip, latest month", false],
      ["Salary slip, month before", false],
      ["Salary slip, two months before", false],
      ["Bank statement", false],
    ]);
    expect(result.salaryAdvance.checklist.map((i) => i.label)).toEqual([
      "Personal details",
      "Address",
      "Work and income (salaried)",
      "Bank account",
      "Selfie",
      "PAN card",
      "Aadhaar, front (masked)",
      "Aadhaar, back (masked)",
      "Salary slip, latest month",
    ]);
    expect(result.emi.checklist.find((i) => i.key === "aadhaar_back")?.href).toBe("/User/Profile/components/Documents#doc-aadhaar_back");
    // The "still missing" words are the checklist's own.
    expect(result.salaryAdvance.missing).toEqual(result.salaryAdvance.checklist.filter((i) => !i.done).map((i) => i.label));
  });

  it("counts a profile without KYC consent as incomplete", () => {
    const result = kycCompleteness({ ...complete, kycConsent: false });
    expect(result.sections.find((s) => s.name === "Profile")?.missing).toEqual(["your consent for KYC checks"]);
  });
});
