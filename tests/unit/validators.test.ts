import { describe, expect, it } from "vitest";
import {
  accepted,
  alpha,
  alphanumeric,
  alphaSpaces,
  between,
  isAfter,
  isBefore,
  unconfirmedFields,
} from "../../app/domain/validators/form-rules.ts";
import {
  aadhaarLast4,
  aadhaarProblem,
  dobProblem,
  ifscFormatProblem,
  nameProblem,
  panProblem,
  pinFormatProblem,
  verhoeffValid,
} from "../../app/domain/validators/identity.ts";
import { said } from "../helpers/messages.ts";

describe("PAN", () => {
  it.each(["ABCPE1234F", "abcpe1234f", " AAAPL1234C "])("accepts %s", (v) => expect(panProblem(v)).toBeNull());
  it.each([
    ["ABCDE1234F", "personal PAN"],
    ["ABCPE0000F", "0000"],
    ["ABCP1234F", "10-character"],
    ["12345ABCDE", "10-character"],
    ["", "10-character"],
  ])("refuses %s", (v, why) => expect(said(panProblem(v))).toContain(why));
});

describe("Aadhaar", () => {
  // Known Verhoeff-valid numbers (public test values, not real people).
  it.each(["234123412346", "2341 2341 2346", "999941057058"])("accepts %s", (v) => expect(aadhaarProblem(v)).toBeNull());
  it.each([
    ["234123412347", "not valid"],
    ["123412341234", "cannot start with 0 or 1"],
    ["012345678901", "cannot start with 0 or 1"],
    ["23412341234", "12 digits"],
    ["2341234123a6", "12 digits"],
  ])("refuses %s", (v, why) => expect(said(aadhaarProblem(v))).toContain(why));
  it("computes Verhoeff and keeps only the last 4 digits", () => {
    expect(verhoeffValid("2363")).toBe(true);
    expect(verhoeffValid("2364")).toBe(false);
    expect(aadhaarLast4("2341 2341 2346")).toBe("2346");
  });
});

describe("IFSC, PIN code, names, date of birth", () => {
  it("checks formats", () => {
    expect(ifscFormatProblem("SBIN0001234")).toBeNull();
    expect(ifscFormatProblem("sbin0001234")).toBeNull();
    expect(said(ifscFormatProblem("SBIN1001234"))).toContain("11-character");
    expect(said(ifscFormatProblem("SBI00012345"))).toContain("11-character");
    expect(pinFormatProblem("560001")).toBeNull();
    expect(said(pinFormatProblem("060001"))).toContain("cannot start with 0");
    expect(said(pinFormatProblem("56001"))).toContain("6-digit");
  });
  it("accepts letters and spaces in names", () => {
    expect(nameProblem("Asha Rani Verma")).toBeNull();
    expect(nameProblem("D'Souza")).toBeNull();
    expect(nameProblem("अनिल कुमार")).toBeNull();
    expect(said(nameProblem("A"))).toContain("at least 2");
    expect(said(nameProblem("R2D2"))).toContain("letters and spaces");
  });
  it("keeps the age between 21 and 60", () => {
    expect(dobProblem("2005-11-22", "2026-11-22")).toBeNull();
    expect(said(dobProblem("2005-11-23", "2026-11-22"))).toContain("at least 21");
    expect(dobProblem("1966-11-22", "2026-11-22")).toBeNull();
    expect(said(dobProblem("1965-11-21", "2026-11-22"))).toContain("60 or younger");
    expect(said(dobProblem("2001-02-30", "2026-11-22"))).toContain("does not exist");
  });
});

describe("generic form rules", () => {
  it("accepted", () => {
    for (const v of ["yes", "on", "1", "true", "TRUE"]) expect(accepted(v)).toBe(true);
    for (const v of ["no", "0", "", undefined]) expect(accepted(v)).toBe(false);
  });
  it("after and before", () => {
    expect(isAfter("2026-11-23", "2026-11-22")).toBe(true);
    expect(isAfter("2026-11-22", "2026-11-22")).toBe(false);
    expect(isBefore("2026-11-21", "2026-11-22")).toBe(true);
    expect(isBefore("not a date", "2026-11-22")).toBe(false);
  });
  it("alpha, alpha with spaces, alphanumeric, between", () => {
    expect(alpha("Asha")).toBe(true);
    expect(alpha("Asha Rani")).toBe(false);
    expect(alphaSpaces("Asha Rani")).toBe(true);
    expect(alphaSpaces("   ")).toBe(false);
    expect(alphanumeric("Flat12B")).toBe(true);
    expect(alphanumeric("Flat 12")).toBe(false);
    expect(between("5", 1, 31)).toBe(true);
    expect(between(32, 1, 31)).toBe(false);
    expect(between("", 0, 1)).toBe(false);
  });
  it("_confirm twins", () => {
    expect(unconfirmedFields({ account_number: "123456789", account_number_confirm: "123456789" })).toEqual([]);
    expect(unconfirmedFields({ account_number: "123456789", account_number_confirm: "123456780" })).toEqual(["account_number_confirm"]);
  });
});
