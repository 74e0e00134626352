import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { requestContext, servicesContext } from "../../../context.ts";
import { kindOfPath, type LoanKind, stepPath } from "../../../domain/loans/application.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { applicationInProgress, applyOpen, startApplication } from "../../../server/loans/start.server.ts";
import { readForm } from "../../../web/forms.server.ts";
import { pageOf, signedInContext } from "../../../web/guards.server.ts";
import { notFoundFullPath } from "../../../web/not-found.server.ts";
import type { Route } from "./+types/start";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { useMessageText } from "../../../lib/use-message-text.ts";
import { languageOf, pageMessages, translatorFor } from "../../../web/i18n.server.ts";

/**
 * /User/newLoan/Emi and /User/newLoan/salaryAdvance (docs/product.md "Credit policy"): a borrower
 * with an application of this kind in progress is taken to it; otherwise the page says whether a
 * new one is open to them now and starts it with a POST (a page view never creates a draft; two
 * starts at once make one).
 */
function kindOf(request: Request): LoanKind {
  const kind = kindOfPath(pageOf(request).path);
  if (!kind) notFoundFullPath(request);
  return kind;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const kind = kindOf(request);
  const existing = await applicationInProgress(services, { userId: user.id, kind });
  if (existing) throw redirect(stepPath(kind, existing.reference, "Step0"));
  const open = await applyOpen(services, { userId: user.id, language: languageOf(context) });
  return {
    messages: pageMessages(context, ["applySteps", "applyFlow"]),
    meta: { title: translatorFor(context, "applySteps")("meta.start", { kind }) },
    kind,
    reasons: open.open ? [] : open.reasons,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const kind = kindOf(request);
  await readForm(request);
  const started = await startApplication(services, {
    userId: user.id,
    kind,
    client: context.get(requestContext),
    language: languageOf(context),
  });
  if (!started.ok) return data({ reasons: started.reasons }, { status: 403 });
  throw redirect(stepPath(kind, started.application.reference, "Step0"));
}

export default function StartApplication({ loaderData, actionData }: Route.ComponentProps) {
  const { kind } = loaderData;
  const reasons = actionData?.reasons ?? loaderData.reasons;
  const busy = useNavigation().state === "submitting";
  const overdue = reasons.some((r) => r.code === "own_overdue");
  const t = useTranslations("applySteps.start");
  const say = useMessageText();
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <h1 className="text-2xl sm:text-3xl">{t("heading", { kind })}</h1>
      {reasons.length ? (
        <section className="card space-y-3 border-amber-300 bg-amber-50" aria-labelledby="not-open-title" data-testid="apply-closed">
          <h2 id="not-open-title" className="text-xl">
            {t("closed", { kind })}
          </h2>
          <ul className="list-disc space-y-1 pl-5" data-testid="apply-reasons">
            {reasons.map((r) => (
              <li key={r.code}>{say(r.message)}</li>
            ))}
          </ul>
          <p className="flex flex-wrap gap-3">
            {overdue ? (
              <Link className="btn-primary" to="/User/Loans">
                {t("payOverdue")}
              </Link>
            ) : null}
            <Link className="btn-secondary" to="/User/Dashboard">
              {t("dashboard")}
            </Link>
          </p>
        </section>
      ) : (
        <section className="card space-y-4" aria-labelledby="start-title">
          <h2 id="start-title" className="text-xl">
            {t("next")}
          </h2>
          <ol className="list-decimal space-y-1 pl-5">
            <li>{t("check")}</li>
            <li>{t("choose", { kind })}</li>
            <li>{t("read")}</li>
            <li>{t("review")}</li>
          </ol>
          <Form method="post">
            <button type="submit" className="btn-primary" disabled={busy}>
              {t("button", { kind })}
            </button>
          </Form>
        </section>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
