import { useEffect } from "react";
import { Form, useRevalidator } from "react-router";
import { FactRows } from "../../../components/loan-flow.tsx";
import { KeptEvaluations, PolicyRules } from "../../../components/policy-table.tsx";
import { STAFF_VERDICT } from "../../../domain/credit-policy/words.ts";
import { longDate } from "../../../domain/india-date.ts";
import { formatRupees } from "../../../domain/money.ts";
import { BUREAU_BANDS, bureauBand } from "../../../domain/review.ts";
import { formatDateTimeIST } from "../../../domain/india-date.ts";
import type { Data } from "../application.tsx";
import { Section } from "./sections.tsx";

// The review page's credit sections: the PAN and bureau checks, the credit policy's verdict, the signed KFS.

export function Checks({ data: d }: { data: Data }) {
  const pan = d.pan;
  const bureau = d.bureau;
  const band = bureau ? BUREAU_BANDS[bureauBand(bureau.score)] : null;
  const a = d.found.application;
  const missing = !pan || !bureau;
  // The checks are fetched by a job after the application is taken: look again every few seconds for a minute.
  const revalidator = useRevalidator();
  const waiting = missing && a.status === "under_review";
  useEffect(() => {
    if (!waiting) return;
    let tries = 0;
    const timer = setInterval(() => {
      if (++tries > 20) clearInterval(timer);
      else void revalidator.revalidate();
    }, 3000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waiting]);
  return (
    <Section id="checks-title" title="PAN verification and credit bureau">
      {pan ? (
        <FactRows
          rows={[
            [
              "PAN",
              pan.status === "valid"
                ? "Valid, an individual's PAN"
                : pan.status === "not_individual"
                  ? "Not an individual's PAN"
                  : "Not found on record",
            ],
            ["Name on record", pan.nameOnRecord ? `${pan.nameOnRecord} (match ${pan.nameMatch} of 100)` : "—"],
            ["Date of birth", pan.dateOfBirthMatches ? "Matches" : "Does not match"],
            ["Checked", `${formatDateTimeIST(pan.checkedAt)} · ${pan.provider} · ${pan.reference}`],
          ]}
        />
      ) : (
        <p>
          PAN not verified yet
          {a.status === "signed" ? ": it runs when the application is taken." : waiting ? ": fetching, this takes a few seconds." : "."}
        </p>
      )}
      {bureau && band ? (
        <div data-testid="bureau">
          <FactRows
            rows={[
              ["Score", bureau.score === null ? "No score" : String(bureau.score)],
              ["Band", band.label],
              ["Accounts", `${bureau.activeAccounts} active, ${bureau.overdueAccounts} overdue`],
              [
                "EMIs reported",
                bureau.monthlyEmiPaise === undefined ? "Not in this report" : `${formatRupees(bureau.monthlyEmiPaise)} a month`,
              ],
              [
                "Written off or 90+ days past due in 12 months",
                bureau.seriousDelinquency === undefined ? "Not in this report" : bureau.seriousDelinquency ? "Yes" : "No",
              ],
              ["Enquiries in 6 months", String(bureau.enquiriesLast6Months)],
              ["Report", `${formatDateTimeIST(bureau.checkedAt)} · ${bureau.provider} · ${bureau.reference}`],
            ]}
          />
          <p className="mt-2 text-sm text-slate-700">{band.hint}</p>
        </div>
      ) : (
        <p>No bureau report yet.</p>
      )}
      {missing && a.status === "under_review" && d.mayDecide ? (
        <Form method="post">
          <button className="btn-secondary" name="intent" value="checks">
            Fetch the missing checks
          </button>
        </Form>
      ) : null}
    </Section>
  );
}

/** The credit policy on the amount signed, now (the version in force, the latest checks), and the judgements kept. */
export function Policy({ data: d }: { data: Data }) {
  const p = d.policy;
  const v = p.now?.verdict;
  return (
    <Section id="policy-title" title="Credit policy">
      {v ? (
        <>
          <p
            data-testid="policy-verdict"
            className={v.result === "pass" ? "font-semibold text-money-700" : "font-semibold text-danger-600"}
          >
            {STAFF_VERDICT[p.now?.sendsBack ? "sends_back" : v.result]} Policy version {v.version}; at most {formatRupees(v.maxAmountPaise)}{" "}
            at this tenure.
          </p>
          <PolicyRules rules={v.rules} label="The credit policy's rules on this application now, table" />
        </>
      ) : p.missing.length ? (
        <p>Cannot judge: missing {p.missing.join(", ")}.</p>
      ) : (
        <p>Decided: the judgements kept below are what the decision and the disbursal saw.</p>
      )}
      <h3>Kept with the application</h3>
      <KeptEvaluations kept={p.kept} />
    </Section>
  );
}

export function Signed({ data: d }: { data: Data }) {
  const s = d.signature;
  const a = d.found.application;
  return (
    <Section id="signed-title" title="Signed Key Fact Statement and agreement">
      {s ? (
        <>
          <FactRows
            rows={[
              ["Signed", formatDateTimeIST(s.signedAt)],
              ["Amount", formatRupees(s.terms.figures.amountPaise)],
              ["Net disbursed", formatRupees(s.terms.figures.netDisbursedPaise)],
              ["Instalment", `${formatRupees(s.terms.figures.instalmentPaise)} × ${s.terms.figures.instalments}`],
              ["First due", longDate(s.terms.figures.firstDueDate)],
              ["APR", `${s.terms.figures.aprPercent.toFixed(2)}%`],
              ["Disbursal to", a.disbursalAccount ? `${a.disbursalAccount.accountMasked}, ${a.disbursalAccount.bankName}` : "—"],
              ["Document SHA-256", s.signedSha256],
            ]}
          />
          <p>
            <a className="btn-secondary" href={`/admin/applications/${a.reference}/agreement.pdf`} target="_blank" rel="noreferrer">
              Open the signed PDF
            </a>
          </p>
        </>
      ) : (
        <p>Not signed.</p>
      )}
    </Section>
  );
}
