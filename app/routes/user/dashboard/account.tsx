import { Form } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { formatDateIST, formatDateTimeIST } from "../../../domain/india-date.ts";
import { ProgressBar } from "../../../components/kyc-checklist.tsx";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../i18n/use-translations.ts";
import type { Language } from "../../../i18n/languages.ts";
import type { Data } from "../dashboard.tsx";

// The dashboard's profile and account cards: the KYC profile's progress, the account, this device.

export function KycCard({ kyc }: { kyc: NonNullable<Data["kyc"]> }) {
  const complete = kyc.done === kyc.of;
  const t = useTranslations("dashboard.kyc");
  const sections = useTranslations("profile.sections");
  return (
    <section aria-labelledby="kyc-title" className="card" data-testid="kyc-card">
      <h2 id="kyc-title" className="text-xl">
        {t("heading")}
      </h2>
      <p className="mt-2 font-medium text-slate-900">{t("progress", { done: String(kyc.done), total: String(kyc.of) })}</p>
      <div className="mt-2">
        <ProgressBar done={kyc.done} of={kyc.of} label={t("progressLabel")} />
      </div>
      <p className="mt-2 text-slate-700">
        {complete
          ? t(kyc.salaryAdvanceReady ? "completeBoth" : "completeEmi")
          : t("stillToDo", { items: kyc.missing.map((m) => sections(m)).join(", ") })}
      </p>
      <Link className={complete ? "btn-secondary mt-4" : "btn-primary mt-4"} to="/User/Profile">
        {complete ? t("view") : t("seeMissing")}
      </Link>
    </section>
  );
}

export function Account({ d }: { d: Data }) {
  const t = useTranslations("dashboard.account");
  const language = useLocale() as Language;
  return (
    <section aria-labelledby="account-title" className="card">
      <h2 id="account-title" className="text-xl">
        {t("heading")}
      </h2>
      <dl className="mt-3 grid gap-2 sm:grid-cols-[12rem_1fr]">
        <dt className="font-medium text-slate-600">{t("signedInAs")}</dt>
        <dd data-testid="signed-in-mobile">{d.mobile ? formatMobile(d.mobile) : t("notAdded")}</dd>
        <dt className="font-medium text-slate-600">{t("memberSince")}</dt>
        <dd>{formatDateIST(new Date(d.memberSince), language)}</dd>
      </dl>
    </section>
  );
}

export function Device({ device }: { device: Data["device"] }) {
  const signedInAt = new Date(device.signedInAt);
  const t = useTranslations("dashboard.device");
  const language = useLocale() as Language;
  const { browser, os } = describeBrowser(device.userAgent);
  return (
    <section aria-labelledby="device-title" className="card">
      <h2 id="device-title" className="text-xl">
        {t("heading")}
      </h2>
      <dl className="mt-3 grid gap-2 sm:grid-cols-[12rem_1fr]">
        <dt className="font-medium text-slate-600">{t("browser")}</dt>
        <dd>{os ? t("browserOn", { browser: browser ?? t("aBrowser"), os }) : (browser ?? t("aBrowser"))}</dd>
        <dt className="font-medium text-slate-600">{t("signedIn")}</dt>
        <dd>{t("signedInAt", { when: formatDateTimeIST(signedInAt, language) })}</dd>
      </dl>
      <p className="mt-3 text-sm text-slate-600">{t("oneDevice")}</p>
      <Form method="post" action="/auth/sign-out" className="mt-4">
        <button type="submit" className="btn-secondary">
          {t("signOut")}
        </button>
      </Form>
    </section>
  );
}

const formatMobile = (m: string) => `+91 ${m.slice(0, 5)} ${m.slice(5)}`;

/** The browser and the system from a user agent (names kept as they are; null when not known). */
function describeBrowser(ua: string): { browser: string | null; os: string } {
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Chrome\//.test(ua)
      ? "Chrome"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Safari\//.test(ua)
          ? "Safari"
          : null;
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
  return { browser, os };
}
