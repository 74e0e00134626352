import { LenderNote } from "../../components/lender-trust.tsx";
import { CollectionNotice } from "../../components/collection-notice.tsx";
import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { FormErrors, TextField } from "../../components/field.tsx";
import { requestContext, servicesContext } from "../../context.ts";
import { maskMobile } from "../../domain/validators/mobile.ts";
import { AGREEMENT_LINK_ENDED, isAgreementPath } from "../../domain/loans/agreement-link.ts";
import { codeSchema, mobileSchema } from "../../domain/sign-in.ts";
import { ensureDeviceId } from "../../lib/device.ts";
import { pageMeta } from "../../lib/meta.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";
import { usePublicConfig } from "../../root.tsx";
import { signedInOn } from "../../server/auth/session.server.ts";
import { safeRedirect } from "../../web/guards.server.ts";
import {
  type PendingSignIn,
  pendingSignInCookie,
  STAFF_NOT_BORROWER,
  sendSignInCode,
  signInWithCode,
} from "../../server/auth/sign-in.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import type { Route } from "./+types/otp";
import { pageMessages } from "../../web/i18n.server.ts";
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
  return {
    messages: pageMessages(context, ["notice"]),
    redirectTo,
    pending: pending ? { masked: maskMobile(pending.mobile), resendAt: pending.resendAt } : null,
    linking: Boolean(signedIn),
    /** Coming from the quick start: the code is its first step. */
    quickStart: redirectTo.toLowerCase().startsWith("/quickstart"),
    /** Sent here by a signed agreement's link that now opens only to its owner: why. */
    note: isAgreementPath(redirectTo) ? AGREEMENT_LINK_ENDED : null,
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
    return data(
      { step: "mobile" as const, result: submission.reply({ formErrors: ["Your sign-in timed out. Enter your mobile number again."] }) },
      { status: 400 },
    );
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
  const headers = new Headers();
  headers.append("Set-Cookie", signedIn.setCookie);
  headers.append("Set-Cookie", await pendingCookie.serialize("", { maxAge: 0 }));
  return redirectWithToast(
    config,
    request,
    pending.redirectTo || signedIn.landing,
    { type: "success", title: signedIn.created ? "Welcome! Your account is ready." : "You are signed in." },
    { headers },
  );
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const config = usePublicConfig();
  const navigation = useNavigation();
  const step = actionData?.step ?? (loaderData.pending ? "code" : "mobile");
  const busy = navigation.state !== "idle";
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-2xl sm:text-3xl">
        {loaderData.linking
          ? "Verify your mobile number"
          : loaderData.quickStart
            ? "Quick start: your mobile number"
            : `Sign in to ${config?.brandName}`}
      </h1>
      <p className="mt-2 text-slate-700">
        {loaderData.linking
          ? "Add your mobile number to continue. We send a one-time code to check that it is yours."
          : loaderData.quickStart
            ? "We send a one-time code to check the number is yours; this creates your account. Been here before? You carry on where you left off."
            : "Enter your mobile number and we will send you a one-time code. New here? The same steps create your account."}
      </p>
      {loaderData.note ? (
        <p className="card mt-4 border-amber-300 bg-amber-50" role="note" data-testid="sign-in-note">
          {loaderData.note}
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
            Continue with Facebook
          </a>
          <p className="field-hint">You will still verify a mobile number before you apply.</p>
        </div>
      ) : null}
      <p className="mt-6 text-sm text-slate-600">
        By continuing you accept our{" "}
        <Link className="link" to="/terms-and-conditions">
          terms
        </Link>{" "}
        and{" "}
        <Link className="link" to="/privacy-policy">
          privacy policy
        </Link>
        .
      </p>
      <LenderNote className="mt-3" />
    </div>
  );
}

type LastResult = SubmissionResult<string[]> | undefined;

function MobileForm({ redirectTo, lastResult, busy }: { redirectTo: string; lastResult: LastResult; busy: boolean }) {
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
        label="Mobile number"
        hint="10 digits. We send a code by SMS."
        type="tel"
        autoComplete="tel-national"
        inputMode="numeric"
      />
      <button type="submit" name="intent" value="send" className="btn-primary w-full" disabled={busy}>
        Send code
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
  return (
    <>
      <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <p role="status">We sent a 6-digit code to {masked}.</p>
        <input type="hidden" name="deviceId" value={deviceId} />
        <TextField
          field={fields.code}
          label="One-time code"
          hint="The code is valid for 5 minutes."
          className="tracking-[0.3em]"
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
        />
        <button type="submit" name="intent" value="verify" className="btn-primary w-full" disabled={busy}>
          Verify and continue
        </button>
      </Form>
      <Form method="post" className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <button type="submit" name="intent" value="resend" className="btn-secondary" disabled={busy || wait > 0}>
          {wait > 0 ? `Resend code in ${wait} s` : "Resend code"}
        </button>
        <button type="submit" name="intent" value="change" className="link text-sm">
          Use a different number
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

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Sign in", "Sign in with your mobile number and a one-time code.");
