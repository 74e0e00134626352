import { ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "../lib/link.tsx";
import { useTranslations } from "../i18n/use-translations.ts";
import { LenderNote } from "./lender-trust.tsx";

// Words of the "profileSections" namespace, which each section's page loads.

/** How the borrower's KYC data is kept, in a few lines: on every page that asks for it. */
export function DataProtection() {
  const t = useTranslations("profileSections");
  return (
    <aside aria-labelledby="data-protection-title" className="rounded-2xl border border-slate-200 bg-white p-4 text-sm text-slate-700">
      <h2 id="data-protection-title" className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <ShieldCheck aria-hidden="true" className="size-5 text-money-600" />
        {t("dataProtection.heading")}
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>{t("dataProtection.encrypted")}</li>
        <li>{t("dataProtection.staff")}</li>
        <li>{t("dataProtection.use")}</li>
        <li>{t("dataProtection.never")}</li>
      </ul>
    </aside>
  );
}

/** The frame of a KYC section page: breadcrumb, one heading, a line about why we ask; how the data is kept and whom to complain to. */
export function KycSection({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  const t = useTranslations("profileSections");
  return (
    <div className="mx-auto max-w-2xl">
      <p className="text-sm">
        <Link className="link" to="/User/Dashboard">
          {t("frame.dashboard")}
        </Link>{" "}
        ›{" "}
        <Link className="link" to="/User/Profile">
          {t("frame.profile")}
        </Link>{" "}
        › {title}
      </p>
      <h1 className="mt-2 text-2xl sm:text-3xl">{title}</h1>
      <p className="mt-2 text-slate-700">{intro}</p>
      {children}
      <div className="mt-8 space-y-3">
        <DataProtection />
        <LenderNote />
      </div>
    </div>
  );
}
