import { LenderNote } from "../../components/lender-trust.tsx";
import { CollectionNotice } from "../../components/collection-notice.tsx";
import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { FormErrors, TextField } from "../../components/field.tsx";
import { requestContext, servicesContext } from "../../context.ts";
import { maskMobile } from "../../domain/validators/mobile.ts";
import { AGREEMENT_LINK_DAYS, isAgreementPath } from "../../domain/loans/agreement-link.ts";
import { codeSchema, mobileSchema } from "../../domain/sign-in.ts";
import { msg } from "../../i18n/form-message.ts";
import { ensureDeviceId } from "../../lib/device.ts";
import { pageMeta } from "../../lib/meta.ts";
import { linkTo } from "../../lib/rich-text.tsx";
import { useHydrated } from "../../lib/use-hydrated.ts";
import { usePublicConfig } from "../../root.tsx";
import { signedInOn } from "../../server/auth/session.server.ts";
import { safeRedirect } from "../../web/guards.server.ts";
import { pageMessages, translatorFor } from "../../web/i18n.server.ts";
import { useTranslations } from "../../i18n/use-translations.ts";
import {
  type PendingSignIn,
  pendingSignInCookie,
  STAFF_NOT_BORROWER,
  sendSignInCode,
  signInWithCode,
} from "../../server/auth/sign-in.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import type { Route } from "./+types/otp";
import { readForm } from "../../web/forms.server.ts";
import { signInLanding } from "../../server/quick-start/progress.server.ts";
import { useLazySchemaForm } from "../../components/use-lazy-schema-form.ts";

const signInSchemas = () => import("../../domain/sign-in.ts");

/** This page, carrying the page asked for ("" when none: the sign-in then lands by signInLanding). */
const otpPath = (redirectTo: string | undefined) =>
  redirectTo ? `/quickStart/Otp?redirectTo=${encodeURIComponent(redirectTo)}` : "/quickStart/Otp";

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"), "");
  const signedIn = await signedInOn(services, request);
  if (signedIn && signedIn.user.role !== "borrower") throw data({ message: STAFF_NOT_BORROWER }, { status: 403 });
  if (signedIn?.user.mobileVerifiedAt) throw redirect(redirectTo || (await signInLanding(services, signedIn.user.id)));
  const pending = (await pendingSignInCookie(services.config).parse(request.headers.get("Cookie"))) as PendingSignIn | null;
  const t = translatorFor(context, "signIn");
  return {
    messages: pageMessages(context, ["signIn", "notice"]),
    meta: { title: t("otp.meta.title"), description: t("otp.meta.description") },
    redirectTo,
    pending: pending ? { masked: maskMobile(pending.mobile), resendAt: pending.resendAt } : null,
    linking: Boolean(signedIn),
    /** Coming from the quick start: the code is its first step. */
    quickStart: redirectTo.toLowerCase().startsWith("/quickstart"),
    /** Sent here by a signed agreement's link that now opens only to its owner: the page says why. */
    agreementLinkEnded: isAgreementPath(redirectTo),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { config } = services;
  const client = context.get(requestContext);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const pendingCookie = pendingSignInCookie(config);
  const pending = (await pendingCookie.parse(request.headers.get("Cookie"))) as PendingSignIn | null;

  if (intent === "change") {
    return redirect(otpPath(pending?.redirectTo), {
      headers: { "Set-Cookie": await pendingCookie.serialize("", { maxAge: 0 }) },
    });
  }

  if (intent === "send" || intent === "resend") {
    const submission =
      intent === "send"
        ? parseWithZod(formData, { schema: mobileSchema })
        : parseWithZod(new URLSearchParams({ mobile: pending?.mobile ?? "", redirectTo: pending?.redirectTo ?? "" }), {
            schema: mobileSchema,
          });
    if (submission.status !== "success") return data({ step: "mobile" as const, result: submission.reply() }, { status: 400 });
    const { mobile } = submission.value;
    const redirectTo = safeRedirect(submission.value.redirectTo, "");
    const sent = await sendSignInCode(services, { mobile, client });
    if (!sent.ok) {
      return data(
        { step: intent === "send" ? ("mobile" as const) : ("code" as const), result: submission.reply({ formErrors: [sent.message] }) },
        { status: 429 },
      );
    }
    const value: PendingSignIn = { mobile, redirectTo, resendAt: sent.resendAt.toISOString() };
    return redirect(otpPath(redirectTo), {
      headers: { "Set-Cookie": await pendingCookie.serialize(value) },
    });
  }

  // intent === "verify"
  const submission = parseWithZod(formData, { schema: codeSchema });
  if (!pending) {
    return data({ step: "mobile" as const, result: submission.reply({ formErrors: [msg("signIn.errors.timedOut")] }) }, { status: 400 });
  }
  if (submission.status !== "success") return data({ step: "code" as const, result: submission.reply() }, { status: 400 });
  const current = await signedInOn(services, request);
  const signedIn = await signInWithCode(services, {
    mobile: pending.mobile,
    code: submission.value.code,
    deviceId: submission.value.deviceId || `web-${crypto.randomUUID()}`,
    linkTo: current && !current.user.mobileVerifiedAt ? current.user : null,
    client,
  });
  if (!signedIn.ok) {
    const reply =
      signedIn.field === "code"
        ? submission.reply({ fieldErrors: { code: [signedIn.message] } })
        : submission.reply({ formErrors: [signedIn.message] });
    return data({ step: "code" as const, result: reply }, { status: 400 });
  }
  const t = translatorFor(context, "signIn");
  const headers = new Headers();
  headers.append("Set-Cookie", signedIn.setCookie);
  headers.append("Set-Cookie", await pendingCookie.serialize("", { maxAge: 0 }));
  return redirectWithToast(
    config,
    request,
    pending.redirectTo || signedIn.landing,
    { type: "success", title: signedIn.created ? t("otp.welcome") : t("otp.signedIn") },
    { headers },
  );
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const config = usePublicConfig();
  const navigation = useNavigation();
  const step = actionData?.step ?? (loaderData.pending ? "code" : "mobile");
  const busy = navigation.state !== "idle";
  const t = useTranslations("signIn.otp");
  const why = loaderData.linking ? "link" : loaderData.quickStart ? "quickStart" : "signIn";
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-2xl sm:text-3xl">{t(`heading.${why}`, { brand: config?.brandName ?? "" })}</h1>
      <p className="mt-2 text-slate-700">{t(`lead.${why}`)}</p>
      {loaderData.agreementLinkEnded ? (
        <p className="card mt-4 border-amber-300 bg-amber-50" role="note" data-testid="sign-in-note">
          {t("agreementLinkEnded", { days: AGREEMENT_LINK_DAYS })}
        </p>
      ) : null}
      {step === "mobile" ? <CollectionNotice className="mt-4" /> : null}
      {step === "mobile" ? (
        <MobileForm
          redirectTo={loaderData.redirectTo}
          lastResult={actionData?.step === "mobile" ? actionData.result : undefined}
          busy={busy}
        />
      ) : (
        <CodeForm
          masked={loaderData.pending?.masked ?? ""}
          resendAt={loaderData.pending?.resendAt ?? null}
          lastResult={actionData?.step === "code" ? actionData.result : undefined}
          busy={busy}
        />
      )}
      {config?.facebookSignIn && !loaderData.linking ? (
        <div className="mt-6 border-t border-slate-200 pt-6">
          <a className="btn-secondary w-full" href="/auth/facebook">
            {t("facebook")}
          </a>
          <p className="field-hint">{t("facebookHint")}</p>
        </div>
      ) : null}
      <p className="mt-6 text-sm text-slate-600">{t.rich("accept", { terms: termsLink, privacy: privacyLink })}</p>
      <LenderNote className="mt-3" />
    </div>
  );
}

type LastResult = SubmissionResult<string[]> | undefined;

const termsLink = linkTo("/terms-and-conditions", "link");
const privacyLink = linkTo("/privacy-policy", "link");

function MobileForm({ redirectTo, lastResult, busy }: { redirectTo: string; lastResult: LastResult; busy: boolean }) {
  const t = useTranslations("signIn.otp");
  const { form, fields, formErrors } = useLazySchemaForm({
    id: "sign-in-mobile",
    schema: () => signInSchemas().then((m) => m.mobileSchema),
    lastResult,
  });
  return (
    <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <TextField
        field={fields.mobile}
        label={t("mobileLabel")}
        hint={t("mobileHint")}
        type="tel"
        autoComplete="tel-national"
        inputMode="numeric"
      />
      <button type="submit" name="intent" value="send" className="btn-primary w-full" disabled={busy}>
        {t("send")}
      </button>
    </Form>
  );
}

function CodeForm({
  masked,
  resendAt,
  lastResult,
  busy,
}: {
  masked: string;
  resendAt: string | null;
  lastResult: LastResult;
  busy: boolean;
}) {
  const { form, fields, formErrors } = useLazySchemaForm({
    id: "sign-in-code",
    schema: () => signInSchemas().then((m) => m.codeSchema),
    lastResult,
    shouldValidate: "onSubmit",
  });
  // This browser's device id goes with the code, so that its other tabs are not displaced.
  const deviceId = useHydrated() ? ensureDeviceId() : "";
  const wait = useCountdown(resendAt);
  const t = useTranslations("signIn.otp");
  return (
    <>
      <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <p role="status">{t("codeSent", { mobile: masked })}</p>
        <input type="hidden" name="deviceId" value={deviceId} />
        <TextField
          field={fields.code}
          label={t("codeLabel")}
          hint={t("codeHint")}
          className="tracking-[0.3em]"
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
        />
        <button type="submit" name="intent" value="verify" className="btn-primary w-full" disabled={busy}>
          {t("verify")}
        </button>
      </Form>
      <Form method="post" className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <button type="submit" name="intent" value="resend" className="btn-secondary" disabled={busy || wait > 0}>
          {wait > 0 ? t("resendIn", { seconds: String(wait) }) : t("resend")}
        </button>
        <button type="submit" name="intent" value="change" className="link text-sm">
          {t("change")}
        </button>
      </Form>
    </>
  );
}

/** Seconds until `iso` (0 when past or unknown), ticking once a second. */
function useCountdown(iso: string | null) {
  const target = iso ? Date.parse(iso) : 0;
  const [now, setNow] = useState(() => target);
  useEffect(() => {
    if (!target) return;
    const tick = () => setNow(Date.now());
    tick();
    const id = setInterval(tick, 1000);
    return () => clearInterval(id);
  }, [target]);
  return Math.max(0, Math.ceil((target - now) / 1000));
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.meta.title ?? "", loaderData?.meta.description);
