import { z } from "zod";
import { parseRupeesToPaise } from "../money.ts";
import { accepted } from "../validators/form-rules.ts";
import { pinFormatProblem } from "../validators/identity.ts";
import { msg } from "../../i18n/form-message.ts";

/** The choices' English names, as staff pages read them; the borrower's pages say them from the catalogue. */
export const RESIDENCE_TYPES = { owned: "Owned", rented: "Rented", family: "Family-owned", company: "Provided by employer" } as const;
export const EMPLOYMENT_TYPES = { salaried: "Salaried", self_employed: "Self-employed" } as const;
export type EmploymentType = keyof typeof EMPLOYMENT_TYPES;

const tooLong = msg("validation.tooLong", { max: "120" });
const optionalLine = () => z.string().trim().max(120, tooLong).optional();
/** A PIN code's form (its existence is checked on the server against the shipped data). */
export const pinCodeField = z
  .string({ error: msg("validation.pinCode.missing") })
  .trim()
  .superRefine((v, ctx) => {
    const problem = pinFormatProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** The Address section's form (the PIN code's existence is checked on the server). */
export const addressSchema = z
  .object({
    currentLine1: z
      .string({ error: msg("profileSections.errors.line1") })
      .trim()
      .min(3, msg("profileSections.errors.line1Short"))
      .max(120, tooLong),
    currentLine2: optionalLine(),
    currentPincode: pinCodeField,
    residenceType: z.enum(Object.keys(RESIDENCE_TYPES) as [keyof typeof RESIDENCE_TYPES], { error: msg("validation.chooseOne") }),
    yearsAtAddress: z.coerce
      .number({ error: msg("profileSections.errors.years") })
      .int(msg("profileSections.errors.yearsWhole"))
      .min(0, msg("profileSections.errors.yearsMin"))
      .max(99, msg("profileSections.errors.yearsMax")),
    permanentSame: z.string().optional(),
    permanentLine1: z.string().trim().max(120, tooLong).optional(),
    permanentLine2: z.string().trim().max(120, tooLong).optional(),
    permanentPincode: z.string().trim().optional(),
  })
  .superRefine((v, ctx) => {
    if (accepted(v.permanentSame)) return;
    if (!v.permanentLine1 || v.permanentLine1.length < 3) {
      ctx.addIssue({ code: "custom", path: ["permanentLine1"], message: msg("profileSections.errors.permanent") });
    }
    const problem = pinFormatProblem(v.permanentPincode ?? "");
    if (problem) ctx.addIssue({ code: "custom", path: ["permanentPincode"], message: problem });
  });

/** A rupee amount's messages: when it is missing, not a number, or outside its range ({min}, {max}). */
type RupeeMessages = "income" | "existingEmis";

const rupees = (messages: RupeeMessages, { min, max }: { min: number; max: number }) =>
  z
    .string({ error: msg(`validation.${messages}.missing`) })
    .trim()
    .transform((v, ctx) => {
      const paise = parseRupeesToPaise(v === "" ? "x" : v);
      if (paise === null) {
        ctx.addIssue({ code: "custom", message: msg(`validation.${messages}.format`) });
        return z.NEVER;
      }
      if (paise < min || paise > max) {
        ctx.addIssue({
          code: "custom",
          message: msg(`validation.${messages}.range`, {
            min: `₹${(min / 100).toLocaleString("en-IN")}`,
            max: `₹${(max / 100).toLocaleString("en-IN")}`,
          }),
        });
        return z.NEVER;
      }
      return paise;
    });

/** The Employment fields the quick start also asks (Step3 and Step4), with the same rules. */
export const employmentFields = {
  employmentType: z.enum(Object.keys(EMPLOYMENT_TYPES) as [keyof typeof EMPLOYMENT_TYPES], { error: msg("validation.chooseOne") }),
  netMonthlyIncome: rupees("income", { min: 100, max: 100_000_000 }),
  existingEmis: rupees("existingEmis", { min: 0, max: 100_000_000 }),
  salaryDay: z.string().trim().optional(),
};

/** Salaried people give the day their salary arrives (1–31); it is kept only for them. */
function withSalaryDay<T extends z.ZodType<{ employmentType: string; salaryDay?: string | undefined }>>(schema: T) {
  return schema
    .superRefine((v, ctx) => {
      if (v.employmentType !== "salaried") return;
      const day = Number(v.salaryDay);
      if (!v.salaryDay || !Number.isInteger(day) || day < 1 || day > 31) {
        ctx.addIssue({ code: "custom", path: ["salaryDay"], message: msg("validation.employment.salaryDay") });
      }
    })
    .transform((v) => ({ ...v, salaryDay: v.employmentType === "salaried" ? Number(v.salaryDay) : null }));
}

/** The Employment section's form. */
export const employmentSchema = withSalaryDay(
  z.object({
    employmentType: employmentFields.employmentType,
    employerName: z
      .string({ error: msg("profileSections.errors.employer") })
      .trim()
      .min(2, msg("profileSections.errors.employer"))
      .max(120, tooLong),
    designation: z
      .string({ error: msg("profileSections.errors.designation") })
      .trim()
      .min(2, msg("profileSections.errors.designation"))
      .max(80, msg("validation.tooLong", { max: "80" })),
    netMonthlyIncome: employmentFields.netMonthlyIncome,
    existingEmis: employmentFields.existingEmis,
    salaryDay: employmentFields.salaryDay,
    monthsWithEmployer: z.coerce
      .number({ error: msg("profileSections.errors.months") })
      .int(msg("profileSections.errors.monthsWhole"))
      .min(0, msg("profileSections.errors.monthsMin"))
      .max(600, msg("profileSections.errors.monthsMax")),
  }),
);

/** The quick start's Step3: employment type, net monthly income and salary day. */
export const incomeSchema = withSalaryDay(
  z.object({
    employmentType: employmentFields.employmentType,
    netMonthlyIncome: employmentFields.netMonthlyIncome,
    salaryDay: employmentFields.salaryDay,
  }),
);
