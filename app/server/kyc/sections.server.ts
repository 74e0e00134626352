import type { EmploymentType } from "../../domain/kyc/address-employment-schema.ts";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { AppServices } from "../../context.ts";
import type { addressSchema, employmentSchema } from "../../domain/kyc/address-employment-schema.ts";
import { accepted } from "../../domain/validators/form-rules.ts";
import { borrowerAddresses, borrowerEmployment } from "../db/schema.ts";
import { lookupPinCode } from "../reference/lookups.server.ts";
import { msg } from "../../i18n/form-message.ts";

type Services = Pick<AppServices, "db" | "now">;

export async function loadAddress({ db }: Pick<AppServices, "db">, userId: string) {
  const [row] = await db.select().from(borrowerAddresses).where(eq(borrowerAddresses.userId, userId));
  return row ?? null;
}

/** Saves the Address section; PIN codes must exist in the shipped data, which fills city, district and state. */
export async function saveAddress(
  { db, now }: Services,
  { userId, input }: { userId: string; input: z.output<typeof addressSchema> },
): Promise<{ ok: true } | { ok: false; fieldErrors: Record<string, string[]> }> {
  const current = lookupPinCode(input.currentPincode);
  const same = accepted(input.permanentSame);
  const permanent = same ? current : lookupPinCode(input.permanentPincode ?? "");
  const fieldErrors: Record<string, string[]> = {};
  const unknown = msg("validation.pinCode.unknown");
  if (!current) fieldErrors.currentPincode = [unknown];
  if (!same && !permanent) fieldErrors.permanentPincode = [unknown];
  if (!current || !permanent) return { ok: false, fieldErrors };
  const values: Omit<typeof borrowerAddresses.$inferInsert, "userId"> = {
    currentLine1: input.currentLine1,
    currentLine2: input.currentLine2 || null,
    currentPincode: input.currentPincode,
    currentCity: current.city,
    currentDistrict: current.district,
    currentState: current.state,
    residenceType: input.residenceType,
    yearsAtAddress: input.yearsAtAddress,
    permanentSame: same,
    permanentLine1: same ? input.currentLine1 : (input.permanentLine1 ?? null),
    permanentLine2: same ? input.currentLine2 || null : input.permanentLine2 || null,
    permanentPincode: same ? input.currentPincode : (input.permanentPincode ?? null),
    permanentCity: permanent.city,
    permanentDistrict: permanent.district,
    permanentState: permanent.state,
    updatedAt: now(),
  };
  await db
    .insert(borrowerAddresses)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: borrowerAddresses.userId, set: values });
  return { ok: true };
}

export async function loadEmployment({ db }: Pick<AppServices, "db">, userId: string) {
  const [row] = await db.select().from(borrowerEmployment).where(eq(borrowerEmployment.userId, userId));
  return row ?? null;
}

export async function saveEmployment(
  { db, now }: Services,
  { userId, input }: { userId: string; input: z.output<typeof employmentSchema> },
) {
  const values = {
    employmentType: input.employmentType,
    employerName: input.employerName,
    designation: input.designation,
    netMonthlyIncomePaise: input.netMonthlyIncome,
    existingEmiPaise: input.existingEmis,
    salaryDay: input.salaryDay,
    monthsWithEmployer: input.monthsWithEmployer,
    updatedAt: now(),
  };
  await db
    .insert(borrowerEmployment)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: borrowerEmployment.userId, set: values });
}

// ---- what the quick start saves into these sections (the rest waits for each section's form) ----

/** Quick start Step2: the current PIN code and what it fills (city, district, state). */
export async function savePinCode(
  services: Services,
  { userId, pincode }: { userId: string; pincode: string },
): Promise<{ ok: true } | { ok: false; fieldErrors: Record<string, string[]> }> {
  const place = lookupPinCode(pincode);
  if (!place) return { ok: false, fieldErrors: { pincode: [msg("validation.pinCode.unknown")] } };
  const saved = await loadAddress(services, userId);
  const moved = saved !== null && saved.currentPincode !== pincode;
  // A new PIN code is a new address: its street lines are asked again in the Address section.
  const current = {
    currentPincode: pincode,
    currentCity: place.city,
    currentDistrict: place.district,
    currentState: place.state,
    ...(moved ? { currentLine1: null, currentLine2: null } : {}),
  };
  // A saved "same as current" address moves with it.
  const permanent = saved?.permanentSame
    ? {
        permanentPincode: pincode,
        permanentCity: place.city,
        permanentDistrict: place.district,
        permanentState: place.state,
        ...(moved ? { permanentLine1: null, permanentLine2: null } : {}),
      }
    : {};
  const values = { ...current, ...permanent, updatedAt: services.now() };
  await services.db
    .insert(borrowerAddresses)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: borrowerAddresses.userId, set: values });
  return { ok: true };
}

/** Quick start Step3: employment type, net monthly income and salary day. */
export async function saveIncome(
  { db, now }: Services,
  { userId, input }: { userId: string; input: { employmentType: EmploymentType; netMonthlyIncome: number; salaryDay: number | null } },
) {
  const values = {
    employmentType: input.employmentType,
    netMonthlyIncomePaise: input.netMonthlyIncome,
    salaryDay: input.salaryDay,
    updatedAt: now(),
  };
  await db
    .insert(borrowerEmployment)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: borrowerEmployment.userId, set: values });
}

/** Quick start Step4: existing monthly EMIs (Step3 has created the row). */
export async function saveExistingEmis({ db, now }: Services, { userId, existingEmiPaise }: { userId: string; existingEmiPaise: number }) {
  const updated = await db
    .update(borrowerEmployment)
    .set({ existingEmiPaise, updatedAt: now() })
    .where(eq(borrowerEmployment.userId, userId))
    .returning({ id: borrowerEmployment.userId });
  return updated.length > 0;
}
