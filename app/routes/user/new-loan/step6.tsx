import { getFormProps } from "@conform-to/react";
import { getInputProps } from "../../../components/input-props.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { CheckboxField, FormErrors, TextField } from "../../../components/field.tsx";
import { LoanFlow } from "../../../components/loan-flow.tsx";
import { signSchema, stepPath } from "../../../domain/loans/application.ts";
import { longDate } from "../../../domain/india-date.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatRupees } from "../../../domain/money.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import type { Route } from "./+types/step6";
import { readForm } from "../../../web/forms.server.ts";
import { maskMobile } from "../../../domain/validators/mobile.ts";
import { sendSigningCode, signApplication } from "../../../server/loans/sign.server.ts";
import { cancelFromStep, ensureDocument, ensureProfileReady, loadStep, stepPage } from "../../../web/new-loan-step.server.ts";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../i18n/use-translations.ts";
import type { Language } from "../../../i18n/languages.ts";
import { strongWith } from "../../../lib/rich-text.tsx";
import { useMessageText } from "../../../lib/use-message-text.ts";
import { translatorFor } from "../../../web/i18n.server.ts";
import { refusedSend } from "../../../server/auth/sign-in.server.ts";
import { useSchemaForm } from "../../../components/use-schema-form.ts";

export async function loader(args: Route.LoaderArgs) {
  const loaded = await loadStep(args, "Step6");
  await ensureProfileReady(loaded, args.request);
  const { services, kind, reference, user } = loaded;
  // An expired KFS is replaced before signing, and the borrower reads the fresh one first.
  const { reissued, document: doc } = await ensureDocument(loaded, args.request);
  if (reissued) {
    const t = translatorFor(args.context, "applySteps");
    throw await redirectWithToast(services.config, args.request, stepPath(kind, reference, "Step5"), {
      type: "info",
      title: t("sign.expired"),
      description: t("sign.expiredMore"),
    });
  }
  return {
    ...stepPage(args.context, "Step6", ["signIn"]),
    kind,
    reference,
    status: loaded.state.status,
    done: loaded.done,
    documentId: doc.id,
    sha256: doc.sha256,
    figures: doc.kfs.figures,
    validUntil: doc.validUntil,
    mobile: maskMobile(user.mobile),
  };
}

export async function action(args: Route.ActionArgs) {
  const loaded = await loadStep(args, "Step6");
  const { services, user, reference, application, request: client } = loaded;
  const formData = await readForm(args.request);
  const intent = formData.get("intent");
  if (intent === "cancel") return cancelFromStep(loaded, args.request);
  if (!user.mobile) throw redirect("/User/Dashboard");

  if (intent === "send") {
    const sent = await sendSigningCode(services, { user, reference, client });
    const minutes = Math.round(services.config.otp.ttlSeconds / 60);
    const t = translatorFor(args.context, "applySteps");
    return data(
      {
        send: sent.ok
          ? { ok: true as const, message: t("sign.sent", { mobile: maskMobile(user.mobile), minutes: String(minutes) }) }
          : { ok: false as const, message: sent.reason === "no_mobile" ? sent.message : refusedSend(sent, services.now()) },
      },
      { status: sent.ok ? 200 : 429 },
    );
  }

  const submission = parseWithZod(formData, { schema: signSchema });
  if (submission.status !== "success") return data({ sign: submission.reply() }, { status: 400 });
  const outcome = await signApplication(services, {
    user,
    applicationId: application.id,
    ...submission.value,
    client,
  });
  if (!outcome.ok && outcome.field === "policy") {
    throw await redirectWithToast(services.config, args.request, stepPath(loaded.kind, reference, "Step0"), {
      type: "error",
      title: outcome.message,
    });
  }
  if (!outcome.ok) {
    const reply =
      outcome.field === "code"
        ? submission.reply({ fieldErrors: { code: [outcome.message] } })
        : submission.reply({ formErrors: [outcome.message] });
    return data({ sign: reply, stale: outcome.field === "documentId" }, { status: outcome.field === "code" ? 400 : 409 });
  }
  throw redirect(`/success/${reference}`);
}

export default function Step6({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, reference, figures: f } = loaderData;
  const navigation = useNavigation();
  const signResult = actionData && "sign" in actionData ? actionData.sign : null;
  const sendResult = actionData && "send" in actionData ? actionData.send : null;
  const stale = actionData && "stale" in actionData ? actionData.stale : false;
  const { form, fields, formErrors } = useSchemaForm({
    schema: signSchema,
    lastResult: signResult,
    defaultValue: { documentId: loaderData.documentId },
  });
  const busy = navigation.state !== "idle";
  const t = useTranslations("applySteps.sign");
  const say = useMessageText();
  const language = useLocale() as Language;
  const figures = {
    amount: formatRupees(f.amountPaise),
    instalment: formatRupees(f.instalmentPaise),
    date: longDate(f.firstDueDate, language),
    apr: f.aprPercent.toFixed(2),
    receive: formatRupees(f.netDisbursedPaise),
    strong: moneyStrong,
  };
  return (
    <LoanFlow kind={kind} reference={reference} step="Step6" status={loaderData.status} done={loaderData.done} title={t("title")}>
      <section className="card space-y-2" aria-labelledby="what-title">
        <h2 id="what-title" className="text-xl">
          {t("what")}
        </h2>
        <p>
          {f.instalments === 1 ? t.rich("summaryOnce", figures) : t.rich("summaryMonthly", { ...figures, count: String(f.instalments) })}
        </p>
        <p className="text-sm text-slate-600">
          {t("validUntil", { date: longDate(loaderData.validUntil, language) })}{" "}
          <Link className="link" to={stepPath(kind, reference, "Step5")}>
            {t("readAgain")}
          </Link>
        </p>
        <p className="text-xs break-all text-slate-500">{t("hash", { hash: loaderData.sha256 })}</p>
      </section>

      <section className="card space-y-3" aria-labelledby="code-title">
        <h2 id="code-title" className="text-xl">
          {t("codeHeading")}
        </h2>
        <Form method="post" className="flex flex-wrap items-center gap-3">
          <input type="hidden" name="intent" value="send" />
          <button type="submit" className="btn-secondary" disabled={busy}>
            {t("send", { mobile: loaderData.mobile })}
          </button>
        </Form>
        {sendResult ? (
          <p role="status" className={sendResult.ok ? "text-emerald-700" : "text-danger-600"} data-testid="send-result">
            {say(sendResult.message)}
          </p>
        ) : null}
      </section>

      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <h2 className="text-xl">{t("signHeading")}</h2>
        <FormErrors id={form.errorId} errors={formErrors} />
        {stale ? (
          <p>
            <Link className="link" to={stepPath(kind, reference, "Step5")}>
              {t("readCurrent")}
            </Link>
          </p>
        ) : null}
        <input type="hidden" name="intent" value="sign" />
        <input {...getInputProps(fields.documentId, { type: "hidden" })} />
        <CheckboxField field={fields.accept} label={t("accept")} />
        <TextField
          field={fields.code}
          label={t("code")}
          className="max-w-48"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
        />
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
          {t("button")}
        </button>
      </Form>
    </LoanFlow>
  );
}

const moneyStrong = strongWith("money");

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
