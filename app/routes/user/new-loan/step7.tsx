import { STATUS_HEADLINE } from "../../../domain/loans/lifecycle.ts";
import { Link } from "react-router";
import { DisbursalNote, FactRows, LoanFlow, StatusNote } from "../../../components/loan-flow.tsx";

import { formatDateIST, formatTimeIST } from "../../../lib/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatRupees } from "../../../domain/money.ts";
import type { Route } from "./+types/step7";
import { readForm } from "../../../web/forms.server.ts";
import { cancelFromStep, loadStep } from "../../../web/new-loan-step.server.ts";
import { agreementRefOf } from "../../../server/loans/read.server.ts";
import { borrowerDisbursals } from "../../../server/payouts/read.server.ts";

export async function loader(args: Route.LoaderArgs) {
  const loaded = await loadStep(args, "Step7");
  const { services, kind, reference, application, document: doc } = loaded;
  const [agreementRef, disbursals] = await Promise.all([
    agreementRefOf(services, application.id),
    borrowerDisbursals(services, loaded.user.id),
  ]);
  return {
    disbursal: disbursals.find((d) => d.reference === reference) ?? null,
    kind,
    reference,
    status: application.status,
    done: loaded.done,
    statusReason: application.statusReason,
    signedAt: application.signedAt?.toISOString() ?? null,
    agreementRef,
    figures: doc?.kfs.figures ?? null,
    account: application.disbursalAccount,
  };
}

export async function action(args: Route.ActionArgs) {
  const loaded = await loadStep(args, "Step7");
  const formData = await readForm(args.request);
  if (formData.get("intent") === "cancel") return cancelFromStep(loaded, args.request);
  return new Response(null, { status: 405 });
}

export default function Step7({ loaderData }: Route.ComponentProps) {
  const { kind, reference, figures: f } = loaderData;
  const signedAt = loaderData.signedAt ? new Date(loaderData.signedAt) : null;
  return (
    <LoanFlow
      kind={kind}
      reference={reference}
      step="Step7"
      status={loaderData.status}
      done={loaderData.done}
      payoutInFlight={loaderData.disbursal?.inFlight ?? false}
      title={STATUS_HEADLINE[loaderData.status]}
    >
      <section className="card space-y-3" aria-labelledby="status-title">
        <h2 id="status-title" className="text-xl">
          Where it stands
        </h2>
        <StatusNote status={loaderData.status} reason={loaderData.statusReason} />
        {loaderData.disbursal ? <DisbursalNote d={loaderData.disbursal} /> : null}
        {signedAt ? (
          <p className="text-slate-700">
            You signed on {formatDateIST(signedAt)} at {formatTimeIST(signedAt)} (India time).
          </p>
        ) : null}
        {f ? (
          <FactRows
            rows={[
              ["Amount", formatRupees(f.amountPaise)],
              [f.instalments === 1 ? "You repay" : "Monthly instalment", formatRupees(f.instalmentPaise)],
              ["APR", `${f.aprPercent.toFixed(2)}%`],
              ["Paid into", loaderData.account ? `${loaderData.account.accountMasked}, ${loaderData.account.bankName}` : "—"],
            ]}
          />
        ) : null}
      </section>
      {loaderData.status === "signed" || loaderData.status === "under_review" || loaderData.status === "approved" ? (
        <section className="card space-y-2" aria-labelledby="next-title">
          <h2 id="next-title" className="text-xl">
            What happens next
          </h2>
          <ol className="list-decimal space-y-1 pl-5">
            <li>A credit officer checks your KYC details, documents, selfie and bank account.</li>
            <li>We send you an SMS when your loan is approved, or tell you why not.</li>
            <li>Once approved, the money goes to your own verified bank account, and your repayment schedule starts from that date.</li>
          </ol>
        </section>
      ) : null}
      <p className="flex flex-wrap gap-3">
        {loaderData.agreementRef ? (
          <Link className="btn-secondary" to={`/Eagreement/${loaderData.agreementRef}`}>
            Your signed agreement
          </Link>
        ) : null}
        <Link className="btn-primary" to="/User/Dashboard">
          Go to the dashboard
        </Link>
      </p>
    </LoanFlow>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "New loan: submitted");
