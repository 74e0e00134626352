import { z } from "zod";
import { parseRupeesToPaise } from "../money.ts";
import { accepted } from "../validators/form-rules.ts";
import { pinFormatProblem } from "../validators/identity.ts";

export const RESIDENCE_TYPES = { owned: "Owned", rented: "Rented", family: "Family-owned", company: "Provided by employer" } as const;
export const EMPLOYMENT_TYPES = { salaried: "Salaried", self_employed: "Self-employed" } as const;
export type EmploymentType = keyof typeof EMPLOYMENT_TYPES;

const requiredLine = (label: string) =>
  z
    .string({ error: `Enter ${label}.` })
    .trim()
    .min(3, `Enter ${label} (at least 3 characters).`)
    .max(120, "Keep it under 120 characters.");
const optionalLine = () => z.string().trim().max(120, "Keep it under 120 characters.").optional();
/** A PIN code's form (its existence is checked on the server against the shipped data). */
export const pinCodeField = z
  .string({ error: "Enter the 6-digit PIN code." })
  .trim()
  .superRefine((v, ctx) => {
    const problem = pinFormatProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** The Address section's form (the PIN code's existence is checked on the server). */
export const addressSchema = z
  .object({
    currentLine1: requiredLine("the house number and street"),
    currentLine2: optionalLine(),
    currentPincode: pinCodeField,
    residenceType: z.enum(Object.keys(RESIDENCE_TYPES) as [keyof typeof RESIDENCE_TYPES], { error: "Choose one." }),
    yearsAtAddress: z.coerce
      .number({ error: "Enter the number of years." })
      .int("Use whole years.")
      .min(0, "Use 0 or more years.")
      .max(99, "Use 99 or fewer years."),
    permanentSame: z.string().optional(),
    permanentLine1: z.string().trim().max(120).optional(),
    permanentLine2: z.string().trim().max(120).optional(),
    permanentPincode: z.string().trim().optional(),
  })
  .superRefine((v, ctx) => {
    if (accepted(v.permanentSame)) return;
    if (!v.permanentLine1 || v.permanentLine1.length < 3) {
      ctx.addIssue({ code: "custom", path: ["permanentLine1"], message: "Enter your permanent address, or tick “same as current”." });
    }
    const problem = pinFormatProblem(v.permanentPincode ?? "");
    if (problem) ctx.addIssue({ code: "custom", path: ["permanentPincode"], message: problem });
  });

const rupees = (label: string, { min, max }: { min: number; max: number }) =>
  z
    .string({ error: `Enter ${label} in rupees.` })
    .trim()
    .transform((v, ctx) => {
      const paise = parseRupeesToPaise(v === "" ? "x" : v);
      if (paise === null) {
        ctx.addIssue({ code: "custom", message: `Enter ${label} in rupees, like 45000.` });
        return z.NEVER;
      }
      if (paise < min || paise > max) {
        ctx.addIssue({
          code: "custom",
          message: `Enter ${label} between ₹${(min / 100).toLocaleString("en-IN")} and ₹${(max / 100).toLocaleString("en-IN")}.`,
        });
        return z.NEVER;
      }
      return paise;
    });

/** The Employment fields the quick start also asks (Step3 and Step4), with the same rules. */
export const employmentFields = {
  employmentType: z.enum(Object.keys(EMPLOYMENT_TYPES) as [keyof typeof EMPLOYMENT_TYPES], { error: "Choose one." }),
  netMonthlyIncome: rupees("your net monthly income", { min: 100, max: 100_000_000 }),
  existingEmis: rupees("your existing monthly EMIs (0 if none)", { min: 0, max: 100_000_000 }),
  salaryDay: z.string().trim().optional(),
};

/** Salaried people give the day their salary arrives (1–31); it is kept only for them. */
function withSalaryDay<T extends z.ZodType<{ employmentType: string; salaryDay?: string | undefined }>>(schema: T) {
  return schema
    .superRefine((v, ctx) => {
      if (v.employmentType !== "salaried") return;
      const day = Number(v.salaryDay);
      if (!v.salaryDay || !Number.isInteger(day) || day < 1 || day > 31) {
        ctx.addIssue({ code: "custom", path: ["salaryDay"], message: "Enter the day of the month your salary arrives, from 1 to 31." });
      }
    })
    .transform((v) => ({ ...v, salaryDay: v.employmentType === "salaried" ? Number(v.salaryDay) : null }));
}

/** The Employment section's form. */
export const employmentSchema = withSalaryDay(
  z.object({
    employmentType: employmentFields.employmentType,
    employerName: z
      .string({ error: "Enter the employer or business name." })
      .trim()
      .min(2, "Enter the employer or business name.")
      .max(120),
    designation: z.string({ error: "Enter your designation or role." }).trim().min(2, "Enter your designation or role.").max(80),
    netMonthlyIncome: employmentFields.netMonthlyIncome,
    existingEmis: employmentFields.existingEmis,
    salaryDay: employmentFields.salaryDay,
    monthsWithEmployer: z.coerce
      .number({ error: "Enter the number of months." })
      .int("Use whole months.")
      .min(0)
      .max(600, "Use 600 or fewer months."),
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
