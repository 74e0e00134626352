// The offer an application is made within (eligibility on the borrower's
// profile, docs/product.md "Eligibility and the offer"), and Step0's
// operation: saving the amount and tenure chosen within it.
import { and, eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import type { LoanKind, TermsBounds } from "../../domain/loans/application.ts";
import { KFS_VALID_WORKING_DAYS } from "../../domain/loans/kfs.ts";
import { addWorkingDays, type IsoDate, nextWorkingDay } from "../../domain/loan-math.ts";
import { type ApplicantFacts, ageOn, emiOffer, type ProductTerms, salaryAdvanceOffer } from "../../domain/offer.ts";
import { todayIST } from "../../lib/format.ts";
import { borrowerEmployment, borrowerProfiles, loanApplications } from "../db/schema.ts";
import { loadProducts, type ProductRow } from "../products.server.ts";
import { type Application, supersedeDocument } from "./rows.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now">;

/** A fact eligibility needs and the profile lacks: which one, its section, where to give it. */
export interface MissingFact {
  fact: "dateOfBirth" | "employment" | "existingEmis";
  section: string;
  href: string;
  what: string;
}
export type FactsResult = { ok: true; facts: ApplicantFacts } | { ok: false; missing: MissingFact[] };

/** What eligibility needs, from the Profile (date of birth) and Employment sections. */
export async function applicantFacts(
  { db }: Pick<AppServices, "db">,
  { userId, today }: { userId: string; today: IsoDate },
): Promise<FactsResult> {
  // One after the other: `db` may be a transaction's single connection.
  const [profile] = await db
    .select({ dateOfBirth: borrowerProfiles.dateOfBirth })
    .from(borrowerProfiles)
    .where(eq(borrowerProfiles.userId, userId));
  const [employment] = await db.select().from(borrowerEmployment).where(eq(borrowerEmployment.userId, userId));
  const missing: MissingFact[] = [];
  if (!profile)
    missing.push({ fact: "dateOfBirth", section: "Profile", href: "/User/Profile/components/Profile", what: "your date of birth and PAN" });
  if (!employment) {
    missing.push({
      fact: "employment",
      section: "Employment",
      href: "/User/Profile/components/Employment",
      what: "your work, income and existing EMIs",
    });
  } else if (employment.existingEmiPaise === null) {
    missing.push({ fact: "existingEmis", section: "Employment", href: "/User/Profile/components/Employment", what: "your existing EMIs" });
  }
  if (!profile || !employment || employment.existingEmiPaise === null) return { ok: false, missing };
  return {
    ok: true,
    facts: {
      ageYears: ageOn(profile.dateOfBirth, today),
      netMonthlyIncomePaise: employment.netMonthlyIncomePaise,
      existingEmiPaise: employment.existingEmiPaise,
      employmentType: employment.employmentType,
      salaryDay: employment.salaryDay,
    },
  };
}

/** Dates the KFS uses: issued today (India), valid 3 working days, disbursal assumed the next working day. */
export function kfsDates(services: Pick<AppServices, "config" | "now">) {
  const today = todayIST(services.now());
  const holidays = services.config.holidays;
  return {
    today,
    validUntil: addWorkingDays(today, KFS_VALID_WORKING_DAYS, holidays),
    assumedDisbursalDate: nextWorkingDay(today, holidays),
  };
}

const terms = (p: ProductRow): ProductTerms & Pick<ProductRow, "penalChargePaise" | "coolingOffDays"> => p;

/**
 * The offer for this kind from eligibility and the bounds of Step0's form:
 * for an EMI loan the largest amount at every tenure.
 */
export async function offerFor(services: Services, { kind, facts }: { kind: LoanKind; facts: ApplicantFacts }) {
  const products = await loadProducts(services);
  const { assumedDisbursalDate } = kfsDates(services);
  if (kind === "emi") {
    const product = terms(products.emi);
    const maxByTenure: Record<number, number> = {};
    let best = emiOffer(facts, product, products.riskBands, product.maxTenure, assumedDisbursalDate);
    for (let t = product.minTenure; t <= product.maxTenure; t++) {
      const o = emiOffer(facts, product, products.riskBands, t, assumedDisbursalDate);
      maxByTenure[t] = o.maxAmountPaise;
      if (t === product.maxTenure) best = o;
    }
    const bounds: TermsBounds = {
      kind,
      minAmountPaise: product.minAmountPaise,
      stepPaise: product.amountStepPaise,
      maxAmountPaise: best.maxAmountPaise,
      maxByTenure,
      minTenure: product.minTenure,
      maxTenure: product.maxTenure,
    };
    return {
      kind,
      product,
      eligible: best.eligible,
      reasons: best.reasons,
      rateBps: best.rateBps,
      bounds,
      assumedDisbursalDate,
      salaryDay: null,
    };
  }
  const product = terms(products.salaryAdvance);
  const o = salaryAdvanceOffer(facts, product, assumedDisbursalDate);
  const bounds: TermsBounds = {
    kind,
    minAmountPaise: product.minAmountPaise,
    stepPaise: product.amountStepPaise,
    maxAmountPaise: o.maxAmountPaise,
    maxByTenure: {},
    minTenure: 1,
    maxTenure: 1,
  };
  return {
    kind,
    product,
    eligible: o.eligible,
    reasons: o.reasons,
    rateBps: product.rateBps,
    bounds,
    assumedDisbursalDate,
    salaryDay: facts.salaryDay ?? null,
  };
}
export type Offer = Awaited<ReturnType<typeof offerFor>>;

/**
 * Step0: the amount and tenure (already validated against the offer), saved
 * with the offer as shown, while the application is the owner's draft; a
 * change withdraws the KFS issued for the old terms.
 */
export async function saveTerms(
  { db, now }: Pick<AppServices, "db" | "now">,
  {
    userId,
    application,
    chosen,
    offer,
  }: { userId: string; application: Application; chosen: { amountPaise: number; tenureMonths: number | null }; offer: Offer },
) {
  const at = now();
  await db.transaction(async (tx) => {
    const changed = application.amountPaise !== chosen.amountPaise || (application.tenureMonths ?? null) !== chosen.tenureMonths;
    const updated = await tx
      .update(loanApplications)
      .set({
        amountPaise: chosen.amountPaise,
        tenureMonths: chosen.tenureMonths,
        offer: {
          rateBps: offer.rateBps,
          maxAmountPaise: offer.bounds.maxAmountPaise,
          maxByTenure: offer.bounds.maxByTenure,
          salaryDay: offer.salaryDay,
          computedAt: at.toISOString(),
        },
        termsSavedAt: at,
        updatedAt: at,
      })
      .where(and(eq(loanApplications.id, application.id), eq(loanApplications.userId, userId), eq(loanApplications.status, "draft")))
      .returning({ id: loanApplications.id });
    if (updated.length && changed) await supersedeDocument(tx, application.id, at);
  });
}
