import { Form, useNavigation } from "react-router";
import { todayIST } from "../../../domain/india-date.ts";
import {
  endedMandateText,
  isLiveMandate,
  MANDATE_KIND_NAME,
  MANDATE_STATUS_TEXT,
  mandateLimitsText,
} from "../../../domain/loans/mandate.ts";
import type { MandateView } from "../../../server/mandates/rows.server.ts";

/** Why autopay could not be set up on an application, in the borrower's words. */
export const APPLICATION_AUTOPAY_REFUSED: Record<string, string> = {
  not_offered: "Autopay is not offered yet: pay each instalment with Pay now by its due date.",
  already_active: "This application already has autopay.",
  not_open: "Autopay is set up once you have signed, until the money is paid out; after that, on the loan's page.",
  being_set_up: "Autopay is being set up with your bank: try again in a moment.",
  no_account: "Your bank account is not verified yet: autopay can be set up once it is.",
  provider_silent: "The autopay service did not answer. Nothing changed; please try again in a minute.",
};

/**
 * Autopay before the money is paid out (docs/product.md "Autopay"): set up from the application's
 * page once it is signed; a product that requires it pays out only once it is active.
 */
export function ApplicationAutopay({
  mandates,
  required,
  problem,
}: {
  mandates: readonly MandateView[];
  required: boolean;
  problem: string | null;
}) {
  const busy = useNavigation().state !== "idle";
  const live = mandates.find((m) => isLiveMandate(m.status)) ?? null;
  const last = live ? null : (mandates[0] ?? null);
  return (
    <section aria-labelledby="autopay-title" className="card space-y-3">
      <h2 id="autopay-title" className="text-xl">
        Autopay
      </h2>
      {problem ? (
        <p role="alert" className="text-red-700">
          {problem}
        </p>
      ) : null}
      {live ? (
        <>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="text-slate-600">Status</dt>
            <dd data-testid="autopay-status">{MANDATE_STATUS_TEXT[live.status]}</dd>
            <dt className="text-slate-600">Type</dt>
            <dd>{MANDATE_KIND_NAME[live.kind]}</dd>
            <dt className="text-slate-600">From account</dt>
            <dd>
              {live.accountMasked} ({live.ifsc})
            </dd>
          </dl>
          <p className="text-slate-700">{mandateLimitsText(live)}</p>
          {live.status === "pending" && live.authUrl ? (
            <a className="btn-primary" href={live.authUrl}>
              Approve autopay at your bank
            </a>
          ) : null}
          {live.status === "active" && required ? (
            <p className="text-slate-700">Autopay is active, so nothing holds up the money once your loan is approved.</p>
          ) : null}
        </>
      ) : (
        <Form method="post" className="space-y-2">
          {last ? (
            <p className="text-slate-700">{endedMandateText(last.status, last.endedAt ? todayIST(new Date(last.endedAt)) : null)}</p>
          ) : null}
          <p className="text-slate-700">
            {required
              ? "This loan is paid out only once autopay is active: set it up now so that the money is not held up. Each instalment is then debited from your verified bank account on its due date, after a notice two days before."
              : "You can set up autopay now: each instalment is then debited from your verified bank account on its due date, after a notice two days before. You can also set it up after the money arrives, or pay each instalment with Pay now."}
          </p>
          <button type="submit" name="intent" value="autopay_start" className="btn-primary" disabled={busy}>
            Set up autopay
          </button>
        </Form>
      )}
    </section>
  );
}
