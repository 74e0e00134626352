import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect, useNavigation } from "react-router";
import { StaffHeader } from "../../components/staff-header.tsx";
import { FormErrors, TextField } from "../../components/field.tsx";
import { requestContext, servicesContext } from "../../context.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatTimeIST } from "../../domain/india-date.ts";
import { readSession } from "../../server/auth/session.server.ts";
import { safeRedirect } from "../../web/guards.server.ts";
import {
  checkStaffCode,
  checkStaffPassword,
  type PendingStaffSignIn,
  staffPendingCookie,
  staffSignInStage,
} from "../../server/auth/staff-sign-in.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import type { Route } from "./+types/login";
import { readForm } from "../../web/forms.server.ts";
import { useLazySchemaForm } from "../../components/use-lazy-schema-form.ts";
import { passwordSchema, totpSchema } from "../../domain/sign-in.ts";

const signInSchemas = () => import("../../domain/sign-in.ts");

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const signedIn = await readSession(services, request);
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/admin");
  if (signedIn && signedIn.user.role !== "borrower") throw redirect(redirectTo);
  const pending = (await staffPendingCookie(services.config).parse(request.headers.get("Cookie"))) as PendingStaffSignIn | null;
  return { redirectTo, ...(await staffSignInStage(services, pending)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { config } = services;
  const client = context.get(requestContext);
  const formData = await readForm(request);
  const cookie = staffPendingCookie(config);
  const clearPending = async () => ({ "Set-Cookie": await cookie.serialize("", { maxAge: 0 }) });

  if (formData.get("intent") === "password") {
    const submission = parseWithZod(formData, { schema: passwordSchema });
    if (submission.status !== "success") return data({ stage: "password" as const, result: submission.reply() }, { status: 400 });
    const { email, password } = submission.value;
    const step = await checkStaffPassword(services, {
      email,
      password,
      redirectTo: safeRedirect(submission.value.redirectTo, "/admin"),
      client,
    });
    if (!step.ok) {
      const message =
        step.reason === "too_many" ? "Too many attempts. Wait 15 minutes and try again." : "The e-mail or password is not right.";
      return data(
        { stage: "password" as const, result: submission.reply({ formErrors: [message], hideFields: ["password"] }) },
        { status: step.reason === "too_many" ? 429 : 400 },
      );
    }
    return redirect("/admin/login", { headers: { "Set-Cookie": await cookie.serialize(step.pending) } });
  }

  const submission = parseWithZod(formData, { schema: totpSchema });
  const pending = (await cookie.parse(request.headers.get("Cookie"))) as PendingStaffSignIn | null;
  const stage = pending?.enrolSecret ? ("enrol" as const) : ("totp" as const);
  if (!pending) {
    return data(
      { stage: "password" as const, result: submission.reply({ formErrors: ["Your sign-in timed out. Start again."] }) },
      { status: 400 },
    );
  }
  if (submission.status !== "success") return data({ stage, result: submission.reply() }, { status: 400 });
  const step = await checkStaffCode(services, { pending, otp: submission.value.otp, client });
  if (step.ok) {
    const headers = new Headers(await clearPending());
    headers.append("Set-Cookie", step.setCookie);
    return redirectWithToast(config, request, step.redirectTo, { type: "success", title: "Signed in to the back office." }, { headers });
  }
  if (step.reason === "wrong") return data({ stage, result: submission.reply({ fieldErrors: { otp: [step.message] } }) }, { status: 400 });
  const message =
    step.reason === "locked"
      ? `Too many wrong codes for this account: its authenticator step is locked until ${formatTimeIST(step.until)}. If these were not your attempts, tell your administrator.`
      : step.message;
  return data(
    { stage: "password" as const, result: submission.reply({ formErrors: [message] }) },
    { status: step.reason === "locked" ? 429 : 400, headers: await clearPending() },
  );
}

export default function StaffLogin({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const stage = actionData?.stage ?? loaderData.stage;
  return (
    <>
      <StaffHeader />
      <main id="main" className="mx-auto max-w-md px-4 py-12">
        <h1 className="text-2xl sm:text-3xl">Staff sign-in</h1>
        {stage === "password" ? (
          <PasswordForm
            redirectTo={loaderData.redirectTo}
            lastResult={actionData?.stage === "password" ? actionData.result : undefined}
            busy={navigation.state !== "idle"}
          />
        ) : (
          <TotpForm
            enrol={stage === "enrol"}
            qrSvg={loaderData.qrSvg}
            secret={loaderData.secret}
            lastResult={actionData && actionData.stage !== "password" ? actionData.result : undefined}
            busy={navigation.state !== "idle"}
          />
        )}
      </main>
    </>
  );
}

type LastResult = SubmissionResult<string[]> | undefined;

function PasswordForm({ redirectTo, lastResult, busy }: { redirectTo: string; lastResult: LastResult; busy: boolean }) {
  const { form, fields, formErrors } = useLazySchemaForm({
    id: "staff-password",
    schema: () => signInSchemas().then((m) => m.passwordSchema),
    lastResult,
  });
  return (
    <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <TextField field={fields.email} label="Work e-mail" type="email" autoComplete="username" />
      <TextField field={fields.password} label="Password" type="password" autoComplete="current-password" />
      <button type="submit" name="intent" value="password" className="btn-primary w-full" disabled={busy}>
        Continue
      </button>
    </Form>
  );
}

function TotpForm({
  enrol,
  qrSvg,
  secret,
  lastResult,
  busy,
}: {
  enrol: boolean;
  qrSvg: string | null;
  secret: string | null;
  lastResult: LastResult;
  busy: boolean;
}) {
  const { form, fields, formErrors } = useLazySchemaForm({
    id: "staff-totp",
    schema: () => signInSchemas().then((m) => m.totpSchema),
    lastResult,
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      {enrol ? (
        <div className="space-y-3">
          <p>
            Set up your second factor: scan this code with an authenticator app (for example Google Authenticator or Microsoft
            Authenticator), then enter the 6-digit code it shows.
          </p>
          {qrSvg ? (
            <img
              alt="QR code for your authenticator app"
              className="mx-auto size-48"
              src={`data:image/svg+xml;utf8,${encodeURIComponent(qrSvg)}`}
            />
          ) : null}
          <p className="text-sm text-slate-700">
            Cannot scan? Enter this key by hand:{" "}
            <code data-testid="totp-secret" className="break-all">
              {secret}
            </code>
          </p>
        </div>
      ) : (
        <p>Enter the 6-digit code from your authenticator app.</p>
      )}
      <TextField field={fields.otp} label="Authenticator code" autoComplete="one-time-code" inputMode="numeric" maxLength={6} />
      <button type="submit" name="intent" value="totp" className="btn-primary w-full" disabled={busy}>
        Sign in
      </button>
    </Form>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Staff sign-in");
