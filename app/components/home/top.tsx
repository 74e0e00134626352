import { formatRupees } from "../../domain/money.ts";
import type { HomeData } from "../../domain/home.ts";
import { PhoneLoanIllustration } from "../illustrations.tsx";

export function TopSection({ facts, brandName }: HomeData) {
  return (
    <section aria-labelledby="top-title" className="bg-gradient-to-b from-brand-50 to-slate-50">
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-12 sm:py-16 lg:grid-cols-2">
        <div>
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{brandName}</p>
          <h1 id="top-title" className="mt-2">
            Personal loans and salary advances, with every rupee shown before you sign
          </h1>
          <p className="mt-4 text-lg text-slate-700">
            Borrow {formatRupees(facts.emi.minAmountPaise)} to {formatRupees(facts.emi.maxAmountPaise)} over {facts.emi.minTenureMonths} to{" "}
            {facts.emi.maxTenureMonths} months, or get up to {facts.salaryAdvance.salaryCapPercent}% of your salary ahead of payday. Apply
            from your phone with your mobile number; no branch visit, no paperwork by post.
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            <a className="btn-primary" href="/quickStart">
              Apply now
            </a>
            <a className="btn-secondary" href="/Rate-terms">
              Rates and charges
            </a>
          </div>
        </div>
        <div className="space-y-4">
          <PhoneLoanIllustration className="mx-auto h-36 w-auto sm:h-44" />
          <dl className="grid grid-cols-2 gap-3 sm:gap-4">
            <div className="card">
              <dt className="text-sm text-slate-600">Interest on EMI loans</dt>
              <dd className="money mt-1 text-xl sm:text-2xl">
                {facts.emi.minRatePercent}% – {facts.emi.maxRatePercent}%
              </dd>
              <dd className="text-sm text-slate-600">a year, fixed, reducing balance</dd>
            </div>
            <div className="card">
              <dt className="text-sm text-slate-600">EMI loan amount</dt>
              <dd className="money mt-1 text-xl sm:text-2xl">up to {formatRupees(facts.emi.maxAmountPaise)}</dd>
              <dd className="text-sm text-slate-600">
                {facts.emi.minTenureMonths}–{facts.emi.maxTenureMonths} monthly instalments
              </dd>
            </div>
            <div className="card">
              <dt className="text-sm text-slate-600">Salary advance</dt>
              <dd className="money mt-1 text-xl sm:text-2xl">up to {formatRupees(facts.salaryAdvance.maxAmountPaise)}</dd>
              <dd className="text-sm text-slate-600">repaid on your salary date</dd>
            </div>
            <div className="card">
              <dt className="text-sm text-slate-600">Foreclosure charge</dt>
              <dd className="money mt-1 text-xl sm:text-2xl">₹0</dd>
              <dd className="text-sm text-slate-600">repay early any time</dd>
            </div>
          </dl>
        </div>
      </div>
    </section>
  );
}
