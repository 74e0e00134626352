import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { ConsentList, RequestList, YourErasurePlan } from "../../../components/privacy-rights.tsx";
import { CorrectionForm, ErasureForm, NomineeForm } from "../../../components/privacy-forms.tsx";
import { requestContext, servicesContext } from "../../../context.ts";
import { consentChangeSchema } from "../../../domain/privacy/consents.ts";
import { correctionSchema, erasureSchema, NOMINEE_RELATIONS, nomineeSchema } from "../../../domain/privacy/requests.ts";
import { msg } from "../../../i18n/form-message.ts";
import { linkTo } from "../../../lib/rich-text.tsx";
import { pageMeta } from "../../../lib/meta.ts";
import {
  changeConsent,
  consentStates,
  correctionDetails,
  currentNominee,
  erasureDetails,
  erasurePlanNow,
  PRIVACY_PATH,
  raiseRequest,
  requestsOf,
  setNominee,
} from "../../../server/privacy/rights.server.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { invalidForm, readForm } from "../../../web/forms.server.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { pageMessages, pageMetaText, translatorFor } from "../../../web/i18n.server.ts";
import type { Route } from "./+types/privacy";

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.meta.title ?? "", loaderData?.meta.description);

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const [consents, nominee, requests, plan] = await Promise.all([
    consentStates(services, user.id),
    currentNominee(services, user.id),
    requestsOf(services, user.id),
    erasurePlanNow(services, user.id),
  ]);
  return {
    consents: consents.map((c) => ({ ...c, at: c.at?.toISOString() ?? null })),
    nominee: nominee && { name: nominee.name, relationship: nominee.relationship, mobile: nominee.mobile, email: nominee.email },
    requests: requests.map((r) => ({ ...r, receivedAt: r.receivedAt.toISOString(), answeredAt: r.answeredAt?.toISOString() ?? null })),
    plan,
    erasureOpen: requests.some((r) => r.kind === "erasure" && r.status === "open"),
    messages: pageMessages(context, ["privacyRights", "consents"]),
    meta: pageMetaText(context, "privacyRights"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const client = context.get(requestContext);
  const form = await readForm(request);
  const t = translatorFor(context, "privacyRights");
  const toast = (title: string, type: "success" | "error" | "info" = "success") =>
    redirectWithToast(services.config, request, PRIVACY_PATH, { type, title });
  switch (String(form.get("intent") ?? "")) {
    case "consent": {
      const s = parseWithZod(form, { schema: consentChangeSchema });
      if (s.status !== "success") throw data({ message: t("errors.chooseConsent") }, { status: 400 });
      const changed = await changeConsent(services, { userId: user.id, ...s.value, client });
      if (!changed) return toast(t("toast.nothingChanged"), "info");
      const words = translatorFor(context, "consents");
      return toast(s.value.granted ? words(`${s.value.purpose}.given`) : words(`${s.value.purpose}.withdrawn`));
    }
    case "nominee": {
      const s = parseWithZod(form, { schema: nomineeSchema });
      if (s.status !== "success") return invalidForm("nominee", s.reply());
      if (s.value.mobile === user.mobile)
        return invalidForm("nominee", s.reply({ fieldErrors: { mobile: [msg("privacyRights.errors.nomineeNotYou")] } }));
      await setNominee(services, { userId: user.id, nominee: s.value });
      return toast(t("toast.nomineeSaved"));
    }
    case "remove_nominee":
      await setNominee(services, { userId: user.id, nominee: null });
      return toast(t("toast.nomineeRemoved"));
    case "correction": {
      const s = parseWithZod(form, { schema: correctionSchema });
      if (s.status !== "success") return invalidForm("correction", s.reply());
      const done = await raiseRequest(services, { userId: user.id, kind: "correction", details: correctionDetails(s.value) });
      if (!done.ok) return invalidForm("correction", s.reply({ formErrors: [msg("privacyRights.errors.tooManyCorrections")] }));
      return toast(t("toast.received", { reference: done.reference }));
    }
    case "erasure": {
      const s = parseWithZod(form, { schema: erasureSchema });
      if (s.status !== "success") return invalidForm("erasure", s.reply());
      const done = await raiseRequest(services, { userId: user.id, kind: "erasure", details: await erasureDetails(services, user.id) });
      if (!done.ok) return invalidForm("erasure", s.reply({ formErrors: [msg("privacyRights.errors.erasureOpen")] }));
      return toast(t("toast.received", { reference: done.reference }));
    }
    default:
      throw data({ message: t("errors.unknownIntent") }, { status: 400 });
  }
}

export default function Privacy({ loaderData, actionData }: Route.ComponentProps) {
  const { consents, nominee, requests, plan, erasureOpen } = loaderData;
  const t = useTranslations("privacyRights");
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <p className="text-sm">
          <Link className="link" to="/User/Profile">
            {t("breadcrumb")}
          </Link>{" "}
          › {t("heading")}
        </p>
        <h1 className="mt-2 text-2xl sm:text-3xl">{t("heading")}</h1>
        <p className="mt-2 text-slate-700">{t.rich("intro", { link: linkTo("/privacy-policy", "link") })}</p>
      </div>

      <section aria-labelledby="consents-title" className="card space-y-4">
        <h2 id="consents-title" className="text-xl">
          {t("consents.heading")}
        </h2>
        <ConsentList consents={consents} />
      </section>

      <section aria-labelledby="download-title" className="card space-y-3">
        <h2 id="download-title" className="text-xl">
          {t("download.heading")}
        </h2>
        <p>{t("download.intro")}</p>
        <div className="flex flex-wrap gap-3">
          {/* Files, not pages: the browser downloads them (no client navigation). */}
          <a className="btn-primary" href="/User/Profile/data/export.pdf" download>
            {t("download.pdf")}
          </a>
          <a className="btn-secondary" href="/User/Profile/data/export.json" download>
            {t("download.json")}
          </a>
        </div>
      </section>

      <section aria-labelledby="correct-title" className="card space-y-3">
        <h2 id="correct-title" className="text-xl">
          {t("correct.heading")}
        </h2>
        <p>{t.rich("correct.intro", { link: linkTo("/User/Profile", "link") })}</p>
        <CorrectionForm actionData={actionData} />
      </section>

      <section aria-labelledby="nominee-title" className="card space-y-3">
        <h2 id="nominee-title" className="text-xl">
          {t("nominee.heading")}
        </h2>
        <p>{t("nominee.intro")}</p>
        {nominee ? (
          <div className="space-y-2" data-testid="nominee">
            <p>{t("nominee.yours")}</p>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
              <dt className="font-medium">{t("nominee.name")}</dt>
              <dd>{nominee.name}</dd>
              <dt className="font-medium">{t("nominee.relationship")}</dt>
              <dd>
                {nominee.relationship in NOMINEE_RELATIONS ? t(`relations.${nominee.relationship as Relation}`) : nominee.relationship}
              </dd>
              <dt className="font-medium">{t("nominee.mobile")}</dt>
              <dd>{nominee.mobile}</dd>
              {nominee.email ? (
                <>
                  <dt className="font-medium">{t("nominee.email")}</dt>
                  <dd className="break-all">{nominee.email}</dd>
                </>
              ) : null}
            </dl>
            <Form method="post">
              <button type="submit" name="intent" value="remove_nominee" className="btn-secondary">
                {t("nominee.remove")}
              </button>
            </Form>
          </div>
        ) : (
          <p data-testid="nominee">{t("nominee.none")}</p>
        )}
        <NomineeForm actionData={actionData} saved={nominee} />
      </section>

      <section aria-labelledby="erase-title" className="card space-y-3">
        <h2 id="erase-title" className="text-xl">
          {t("erase.heading")}
        </h2>
        <p>{t("erase.intro")}</p>
        <YourErasurePlan plan={plan} />
        {erasureOpen ? <p className="font-semibold">{t("erase.open")}</p> : <ErasureForm actionData={actionData} />}
      </section>

      <section aria-labelledby="requests-title" className="card space-y-3">
        <h2 id="requests-title" className="text-xl">
          {t("requests.heading")}
        </h2>
        {requests.length ? <RequestList requests={requests} /> : <p>{t("requests.none")}</p>}
      </section>
    </div>
  );
}

type Relation = keyof typeof NOMINEE_RELATIONS;
