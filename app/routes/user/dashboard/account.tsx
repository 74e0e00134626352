import { Form, Link } from "react-router";
import { formatDateIST, formatDateTimeIST } from "../../../domain/india-date.ts";
import { ProgressBar } from "../../../components/kyc-checklist.tsx";
import { SECTION_TITLES } from "../../../domain/kyc/completeness.ts";
import type { Data } from "../dashboard.tsx";

// The dashboard's profile and account cards: the KYC profile's progress, the account, this device.

export function KycCard({ kyc }: { kyc: NonNullable<Data["kyc"]> }) {
  const complete = kyc.done === kyc.of;
  return (
    <section aria-labelledby="kyc-title" className="card" data-testid="kyc-card">
      <h2 id="kyc-title" className="text-xl">
        Your KYC profile
      </h2>
      <p className="mt-2 font-medium text-slate-900">
        {kyc.done} of {kyc.of} sections complete
      </p>
      <div className="mt-2">
        <ProgressBar done={kyc.done} of={kyc.of} label="KYC sections complete" />
      </div>
      <p className="mt-2 text-slate-700">
        {complete
          ? `Your profile is complete: ${kyc.salaryAdvanceReady ? "you can apply for either loan" : "you can apply for an EMI loan (a salary advance is for salaried people)"}. Keep it up to date if anything changes.`
          : `Still to do: ${kyc.missing.map((m) => SECTION_TITLES[m]).join(", ")}.`}
      </p>
      <Link className={complete ? "btn-secondary mt-4" : "btn-primary mt-4"} to="/User/Profile">
        {complete ? "View your profile" : "See what is missing"}
      </Link>
    </section>
  );
}

export function Account({ d }: { d: Data }) {
  return (
    <section aria-labelledby="account-title" className="card">
      <h2 id="account-title" className="text-xl">
        Your account
      </h2>
      <dl className="mt-3 grid gap-2 sm:grid-cols-[12rem_1fr]">
        <dt className="font-medium text-slate-600">Signed in as</dt>
        <dd data-testid="signed-in-mobile">{formatMobile(d.mobile)}</dd>
        <dt className="font-medium text-slate-600">Member since</dt>
        <dd>{formatDateIST(new Date(d.memberSince))}</dd>
      </dl>
    </section>
  );
}

export function Device({ device }: { device: Data["device"] }) {
  const signedInAt = new Date(device.signedInAt);
  return (
    <section aria-labelledby="device-title" className="card">
      <h2 id="device-title" className="text-xl">
        This device
      </h2>
      <dl className="mt-3 grid gap-2 sm:grid-cols-[12rem_1fr]">
        <dt className="font-medium text-slate-600">Browser</dt>
        <dd>{describeBrowser(device.userAgent)}</dd>
        <dt className="font-medium text-slate-600">Signed in</dt>
        <dd>{formatDateTimeIST(signedInAt)} (India time)</dd>
      </dl>
      <p className="mt-3 text-sm text-slate-600">
        Your account is signed in on one device at a time. Signing in somewhere else signs this device out.
      </p>
      <Form method="post" action="/auth/sign-out" className="mt-4">
        <button type="submit" className="btn-secondary">
          Sign out
        </button>
      </Form>
    </section>
  );
}

const formatMobile = (m: string | null) => (m ? `+91 ${m.slice(0, 5)} ${m.slice(5)}` : "not added yet");

/** A short description of the browser from its user agent. */
function describeBrowser(ua: string) {
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Chrome\//.test(ua)
      ? "Chrome"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Safari\//.test(ua)
          ? "Safari"
          : "a browser";
  const os = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad/.test(ua)
      ? "iOS"
      : /Windows/.test(ua)
        ? "Windows"
        : /Mac OS X/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  return os ? `${browser} on ${os}` : browser;
}
