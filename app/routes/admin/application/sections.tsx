import { Link } from "../../../lib/link.tsx";
import { FactRows, PdfFrame } from "../../../components/loan-flow.tsx";
import { DOCUMENT_KINDS } from "../../../domain/kyc/documents.ts";
import { GENDERS, MARITAL_STATUSES, maskAadhaar } from "../../../domain/kyc/profile-schema.ts";
import { RESIDENCE_TYPES } from "../../../domain/kyc/address-employment-schema.ts";
import { ACCOUNT_TYPES, RELATIONS } from "../../../domain/kyc/references-bank-schema.ts";
import { longDate } from "../../../domain/india-date.ts";
import { accountMatchesAgreement } from "../../../domain/loans/disbursal.ts";
import { STATUS_TEXT } from "../../../domain/loans/lifecycle.ts";
import { formatRupees } from "../../../domain/money.ts";
import { CHECKLIST } from "../../../domain/review.ts";
import { formatDateTimeIST } from "../../../domain/india-date.ts";
import type { Data } from "../application.tsx";

// The review page's sections on the borrower and the file: who they are, what they uploaded, what was asked of them, what happened.

/** A stored code in the words the borrower chose it by ("rented" → "Rented"); the code itself only if unknown. */
const labelOf = (labels: Record<string, string>, code: string | null | undefined) =>
  code ? (Object.hasOwn(labels, code) ? (labels[code] ?? code) : code) : "—";

export function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section className="card space-y-3" aria-labelledby={id}>
      <h2 id={id} className="text-xl">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function Borrower({ data: d }: { data: Data }) {
  const p = d.profile;
  const ad = d.address;
  const e = d.employment;
  const b = d.bank;
  const line = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(", ");
  return (
    <>
      <Section id="profile-title" title="Profile">
        {p ? (
          <FactRows
            rows={[
              ["Name", p.fullName],
              ["Date of birth", longDate(p.dateOfBirth)],
              ["Gender", labelOf(GENDERS, p.gender)],
              ["Marital status", labelOf(MARITAL_STATUSES, p.maritalStatus)],
              ["E-mail", p.email ?? "—"],
              ["PAN", p.panMasked],
              ["Aadhaar", p.aadhaarLast4 ? maskAadhaar(p.aadhaarLast4) : "—"],
              ["CKYC", d.ckyc],
            ]}
          />
        ) : (
          <p>Not given.</p>
        )}
      </Section>
      <Section id="address-title" title="Address">
        {ad ? (
          <FactRows
            rows={[
              ["Current", line(ad.currentLine1, ad.currentLine2, ad.currentCity, ad.currentDistrict, ad.currentState, ad.currentPincode)],
              [
                "Residence",
                line(
                  ad.residenceType ? labelOf(RESIDENCE_TYPES, ad.residenceType) : null,
                  ad.yearsAtAddress !== null ? `${ad.yearsAtAddress} years there` : null,
                ) || "—",
              ],
              [
                "Permanent",
                ad.permanentSame
                  ? "Same as current"
                  : line(
                      ad.permanentLine1,
                      ad.permanentLine2,
                      ad.permanentCity,
                      ad.permanentDistrict,
                      ad.permanentState,
                      ad.permanentPincode,
                    ) || "—",
              ],
            ]}
          />
        ) : (
          <p>Not given.</p>
        )}
      </Section>
      <Section id="employment-title" title="Employment and income">
        {e ? (
          <FactRows
            rows={[
              ["Type", e.employmentType === "salaried" ? "Salaried" : "Self-employed"],
              ["Employer", line(e.employerName, e.designation) || "—"],
              ["Net monthly income", formatRupees(e.netMonthlyIncomePaise)],
              ["Existing EMIs a month", e.existingEmiPaise !== null ? formatRupees(e.existingEmiPaise) : "—"],
              ["Salary day", e.salaryDay ? String(e.salaryDay) : "—"],
              ["With this employer", e.monthsWithEmployer !== null ? `${e.monthsWithEmployer} months` : "—"],
            ]}
          />
        ) : (
          <p>Not given.</p>
        )}
      </Section>
      <Section id="bank-title" title="Bank account">
        {b ? (
          <>
            <FactRows
              rows={[
                ["Holder (as typed)", b.holderName],
                ["Account", `${b.accountMasked} (${labelOf(ACCOUNT_TYPES, b.accountType)})`],
                ["Bank", `${b.bankName}, ${b.ifsc}`],
                ["Name at the bank", b.nameAtBank ?? "—"],
                ["Name match", b.nameMatchScore !== null ? `${b.nameMatchScore} of 100` : "—"],
              ]}
            />
            <p className={b.verifiedAt ? "font-semibold text-money-700" : "font-semibold text-danger-600"} data-testid="bank-verified">
              {b.verifiedAt ? `Verified on ${formatDateTimeIST(b.verifiedAt)}` : "Not verified"}
            </p>
            <AccountNamedInAgreement data={d} />
          </>
        ) : (
          <p>Not given.</p>
        )}
      </Section>
      <Section id="references-title" title="References">
        {d.references.length ? (
          <ul className="space-y-1">
            {d.references.map((r) => (
              <li key={r.position}>
                {r.name} ({labelOf(RELATIONS, r.relation)}), +91 {r.mobile}
              </li>
            ))}
          </ul>
        ) : (
          <p>None given.</p>
        )}
      </Section>
    </>
  );
}

/** The account named in the signed agreement, when it differs from the Bank section now. */
function AccountNamedInAgreement({ data: d }: { data: Data }) {
  const chosen = d.found.application.disbursalAccount;
  if (!chosen || !d.bank || accountMatchesAgreement(chosen, d.bank)) return null;
  return (
    <p className="font-semibold text-danger-600">
      The agreement names {chosen.accountMasked} ({chosen.ifsc}); the Bank section now holds a different account.
    </p>
  );
}

export function Documents({ data: d }: { data: Data }) {
  const v = d.viewing;
  return (
    <Section id="documents-title" title="Documents and selfie">
      <p className="text-sm text-slate-600">Each document you open is recorded in the audit log.</p>
      {d.documents.length ? (
        <ul className="divide-y divide-slate-200">
          {d.documents.map((doc) => (
            <li key={doc.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                {DOCUMENT_KINDS[doc.kind]}
                <span className="block text-sm text-slate-600">
                  {doc.contentType === "application/pdf" ? "PDF" : "Image"}, {Math.ceil(doc.sizeBytes / 1024)} kB, uploaded{" "}
                  {formatDateTimeIST(doc.uploadedAt)}
                </span>
              </span>
              <Link
                className="btn-secondary"
                to={`?doc=${doc.id}#viewer`}
                preventScrollReset
                aria-current={v?.id === doc.id ? "true" : undefined}
              >
                View<span className="sr-only"> {DOCUMENT_KINDS[doc.kind]}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p>No documents uploaded.</p>
      )}
      {v ? (
        <figure id="viewer" className="space-y-2" data-testid="document-viewer">
          <figcaption className="font-semibold">{DOCUMENT_KINDS[v.kind]}</figcaption>
          {v.contentType === "application/pdf" ? (
            <PdfFrame title={DOCUMENT_KINDS[v.kind]} src={`/admin/documents/${v.id}`} />
          ) : (
            <img
              src={`/admin/documents/${v.id}`}
              alt={DOCUMENT_KINDS[v.kind]}
              className="max-h-[70vh] rounded-lg border border-slate-300"
            />
          )}
          <a className="link text-sm" href={`/admin/documents/${v.id}`} target="_blank" rel="noreferrer">
            Open in a new tab
          </a>
        </figure>
      ) : null}
    </Section>
  );
}

export function Requests({ data: d }: { data: Data }) {
  if (!d.requests.length) return null;
  return (
    <Section id="requests-title" title="Asked of the borrower">
      <ul className="divide-y divide-slate-200">
        {d.requests.map((r) => (
          <li key={r.id} className="space-y-1 py-2" data-testid="request">
            <p>
              <span className="font-semibold">{r.documentKind ? `Upload again: ${DOCUMENT_KINDS[r.documentKind]}` : "Question"}</span> ·{" "}
              {r.askedBy}, {formatDateTimeIST(r.askedAt)}
            </p>
            <p className="whitespace-pre-line">{r.message}</p>
            <p className={r.answeredAt ? "text-money-700" : "font-semibold text-amber-800"}>
              {r.answeredAt
                ? `Answered ${formatDateTimeIST(r.answeredAt)}${r.answer ? `: ${r.answer}` : " (document uploaded again)"}`
                : "Waiting for the borrower"}
            </p>
          </li>
        ))}
      </ul>
    </Section>
  );
}

const ACTION_TEXT: Record<string, string> = {
  "loan.status": "Status",
  "application.taken_over": "Taken over",
  "application.asked": "Asked the borrower",
  "application.answered": "The borrower answered",
  "review.checklist": "Checklist",
  "loan.agreement_viewed": "Signed PDF opened",
};

export function History({ data: d }: { data: Data }) {
  return (
    <Section id="history-title" title="History">
      <ol className="space-y-1 text-sm">
        {d.history.map((h, i) => {
          const x = (h.details ?? {}) as Record<string, unknown>;
          const what =
            h.action === "loan.status"
              ? `${x.from ? `${STATUS_TEXT[x.from as keyof typeof STATUS_TEXT]?.label ?? x.from} → ` : ""}${STATUS_TEXT[x.to as keyof typeof STATUS_TEXT]?.label ?? x.to}`
              : h.action === "review.checklist"
                ? `${x.checked ? "ticked" : "unticked"} "${CHECKLIST[x.item as keyof typeof CHECKLIST] ?? x.item}"`
                : "";
          return (
            <li key={i}>
              <span className="text-slate-600">{formatDateTimeIST(h.at)}</span> · {ACTION_TEXT[h.action] ?? h.action}
              {what ? `: ${what}` : ""} · {h.actorName ?? h.actorRole ?? "system"}
            </li>
          );
        })}
      </ol>
    </Section>
  );
}
