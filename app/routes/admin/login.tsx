import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { eq } from "drizzle-orm";
import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { FormErrors, TextField } from "../../components/field.tsx";
import { requestContext, servicesContext } from "../../context.ts";
import { pageMeta } from "../../lib/meta.ts";
import { createUserSession, readSession, safeRedirect } from "../../server/auth/session.server.ts";
import { audit, checkTotp, newTotpEnrolment, openTotpSecret, sealTotpSecret, totpQr, verifyPassword } from "../../server/auth/staff.server.ts";
import { signedCookie } from "../../server/cookies.server.ts";
import { users } from "../../server/db/schema.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { hitRateLimit } from "../../server/rate-limit.server.ts";
import type { Route } from "./+types/login";

export const passwordSchema = z.object({
  email: z.email({ error: "Enter your work e-mail address." }),
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password."),
  redirectTo: z.string().optional(),
});
export const totpSchema = z.object({
  otp: z.string({ error: "Enter the 6-digit code from your authenticator app." }).trim().regex(/^\d{6}$/, "The code is 6 digits."),
});

interface Pending {
  userId: string;
  redirectTo: string;
  /** Set during enrolment: the new TOTP secret, encrypted. */
  enrolSecret?: string;
}

/** Who passed the password step, until the second factor (10 minutes, signed). */
const pendingCookie = signedCookie("staff_pending", { path: "/admin", maxAge: 10 * 60 });

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const signedIn = await readSession(services, request);
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/admin/presence");
  if (signedIn && signedIn.user.role !== "borrower") throw redirect(redirectTo);
  const pending = (await pendingCookie(services.config).parse(request.headers.get("Cookie"))) as Pending | null;
  if (!pending) return { stage: "password" as const, redirectTo, qrSvg: null, secret: null };
  if (!pending.enrolSecret) return { stage: "totp" as const, redirectTo, qrSvg: null, secret: null };
  const [user] = await services.db.select({ email: users.email }).from(users).where(eq(users.id, pending.userId));
  const secret = openTotpSecret(services, pending.enrolSecret);
  const { qrSvg } = await totpQr(services.config.public.brandName, user?.email ?? "", secret);
  return { stage: "enrol" as const, redirectTo, qrSvg, secret };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { config, db, now } = services;
  const { ip, userAgent } = context.get(requestContext);
  const formData = await request.formData();
  const cookie = pendingCookie(config);
  const pending = (await cookie.parse(request.headers.get("Cookie"))) as Pending | null;

  if (formData.get("intent") === "password") {
    const submission = parseWithZod(formData, { schema: passwordSchema });
    if (submission.status !== "success") return data({ stage: "password" as const, result: submission.reply() }, { status: 400 });
    const limit = await hitRateLimit(db, "staff_login", `${ip}`, { limit: 20, windowMs: 15 * 60_000 }, now());
    if (!limit.allowed) {
      return data({ stage: "password" as const, result: submission.reply({ formErrors: ["Too many attempts. Wait 15 minutes and try again."] }) }, { status: 429 });
    }
    const [user] = await db.select().from(users).where(eq(users.email, submission.value.email.toLowerCase()));
    const ok = user && user.role !== "borrower" && !user.disabledAt && user.passwordHash && (await verifyPassword(user.passwordHash, submission.value.password));
    if (!ok || !user) {
      await audit(services, { actorUserId: user?.id ?? null, actorRole: user?.role ?? null, action: "staff.sign_in_failed", ip, userAgent, details: { email: submission.value.email } });
      return data({ stage: "password" as const, result: submission.reply({ formErrors: ["The e-mail or password is not right."], hideFields: ["password"] }) }, { status: 400 });
    }
    const next: Pending = { userId: user.id, redirectTo: safeRedirect(submission.value.redirectTo, "/admin/presence") };
    if (!user.totpEnrolledAt) {
      const { secret } = await newTotpEnrolment(config.public.brandName, user.email ?? "");
      next.enrolSecret = sealTotpSecret(services, secret);
    }
    return redirect("/admin/login", { headers: { "Set-Cookie": await cookie.serialize(next) } });
  }

  const submission = parseWithZod(formData, { schema: totpSchema });
  const stage = pending?.enrolSecret ? ("enrol" as const) : ("totp" as const);
  if (!pending) {
    return data({ stage: "password" as const, result: submission.reply({ formErrors: ["Your sign-in timed out. Start again."] }) }, { status: 400 });
  }
  if (submission.status !== "success") return data({ stage, result: submission.reply() }, { status: 400 });
  const [user] = await db.select().from(users).where(eq(users.id, pending.userId));
  if (!user) return data({ stage: "password" as const, result: submission.reply({ formErrors: ["Start again."] }) }, { status: 400 });
  const secret = pending.enrolSecret ? openTotpSecret(services, pending.enrolSecret) : user.totpSecretEnc ? openTotpSecret(services, user.totpSecretEnc) : null;
  if (!secret || !(await checkTotp(secret, submission.value.otp))) {
    await audit(services, { actorUserId: user.id, actorRole: user.role, action: "staff.totp_failed", ip, userAgent });
    return data({ stage, result: submission.reply({ fieldErrors: { otp: ["That code is not right. Check the time on your phone and try the current code."] } }) }, { status: 400 });
  }
  if (pending.enrolSecret) {
    await db.update(users).set({ totpSecretEnc: pending.enrolSecret, totpEnrolledAt: now() }).where(eq(users.id, user.id));
    await audit(services, { actorUserId: user.id, actorRole: user.role, action: "staff.totp_enrolled", ip, userAgent });
  }
  const { setCookie } = await createUserSession(services, { userId: user.id, deviceId: `staff-${crypto.randomUUID()}`, ip, userAgent });
  await audit(services, { actorUserId: user.id, actorRole: user.role, action: "staff.signed_in", ip, userAgent });
  const headers = new Headers();
  headers.append("Set-Cookie", setCookie);
  headers.append("Set-Cookie", await cookie.serialize("", { maxAge: 0 }));
  return redirectWithToast(config, request, pending.redirectTo, { type: "success", title: "Signed in to the back office." }, { headers });
}

export default function StaffLogin({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const stage = actionData?.stage ?? loaderData.stage;
  return (
    <main id="main" className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl sm:text-3xl">Staff sign-in</h1>
      {stage === "password" ? (
        <PasswordForm redirectTo={loaderData.redirectTo} lastResult={actionData?.stage === "password" ? actionData.result : undefined} busy={navigation.state !== "idle"} />
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
  );
}

type LastResult = SubmissionResult<string[]> | undefined;

function PasswordForm({ redirectTo, lastResult, busy }: { redirectTo: string; lastResult: LastResult; busy: boolean }) {
  const [form, fields] = useForm({ id: "staff-password", lastResult, onValidate: ({ formData }) => parseWithZod(formData, { schema: passwordSchema }), shouldValidate: "onBlur" });
  return (
    <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <TextField field={fields.email} label="Work e-mail" type="email" autoComplete="username" />
      <TextField field={fields.password} label="Password" type="password" autoComplete="current-password" />
      <button type="submit" name="intent" value="password" className="btn-primary w-full" disabled={busy}>
        Continue
      </button>
    </Form>
  );
}

function TotpForm({ enrol, qrSvg, secret, lastResult, busy }: { enrol: boolean; qrSvg: string | null; secret: string | null; lastResult: LastResult; busy: boolean }) {
  const [form, fields] = useForm({ id: "staff-totp", lastResult, onValidate: ({ formData }) => parseWithZod(formData, { schema: totpSchema }), shouldValidate: "onSubmit" });
  return (
    <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors} />
      {enrol ? (
        <div className="space-y-3">
          <p>Set up your second factor: scan this code with an authenticator app (for example Google Authenticator or Microsoft Authenticator), then enter the 6-digit code it shows.</p>
          {qrSvg ? <img alt="QR code for your authenticator app" className="mx-auto size-48" src={`data:image/svg+xml;utf8,${encodeURIComponent(qrSvg)}`} /> : null}
          <p className="text-sm text-slate-700">
            Cannot scan? Enter this key by hand: <code data-testid="totp-secret" className="break-all">{secret}</code>
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
