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
    expect(result.emi.missing).toEqual(["Reference", "Documents"]);
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
    expect(result.salaryAdvance.missing).toEqual(["Bank", "Employment (salaried)", "Salary slip, latest month"]);
    expect(result.sections.find((s) => s.name === "Bank")?.missing[0]).toContain("verified");
    expect(result.sections.find((s) => s.name === "Documents")?.complete).toBe(true);
  });

  it("counts a profile without KYC consent as incomplete", () => {
    const result = kycCompleteness({ ...complete, kycConsent: false });
    expect(result.sections.find((s) => s.name === "Profile")?.missing).toEqual(["your consent for KYC checks"]);
  });
});
