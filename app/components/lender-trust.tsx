import { NavLink } from "./nav-link.tsx";
import { useTranslations } from "../i18n/use-translations.ts";
import { mailLink, telLink } from "../lib/rich-text.tsx";
import { usePublicConfig } from "../root.tsx";

const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;

/** The grievance officer's name, phone and e-mail (links large enough to tap). */
export function GrievanceOfficer({ className = "" }: { className?: string }) {
  const officer = usePublicConfig()?.lender.grievanceOfficer;
  const t = useTranslations("common");
  if (!officer) return null;
  return (
    <div className={className}>
      <p className="font-semibold text-slate-900">{t("grievanceOfficer")}</p>
      <p className="mt-1">{officer.name}</p>
      <p>
        <a className="link inline-block py-1" href={telHref(officer.phone)}>
          {officer.phone}
        </a>
      </p>
      <p>
        <a className="link inline-block py-1 break-all" href={`mailto:${officer.email}`}>
          {officer.email}
        </a>
      </p>
    </div>
  );
}

/**
 * Who the borrower is dealing with, beside every form that takes personal data: the lender, its RBI
 * registration, and whom to complain to.
 */
export function LenderNote({ className = "" }: { className?: string }) {
  const config = usePublicConfig();
  const t = useTranslations("common");
  if (!config) return null;
  const { lender } = config;
  const officer = lender.grievanceOfficer;
  return (
    <p className={`text-sm text-slate-600 ${className}`} data-testid="lender-note">
      {t.rich("lenderNote", {
        brand: config.brandName,
        lender: lender.name,
        registration: lender.rbiRegistration,
        officer: officer.name,
        phoneNumber: officer.phone,
        emailAddress: officer.email,
        phone: telLink(officer.phone),
        email: mailLink(officer.email),
      })}
    </p>
  );
}

const POLICIES = [
  { to: "/grievance-policy", label: "grievancePolicy" },
  { to: "/privacy-policy", label: "privacyPolicy" },
  { to: "/terms-and-conditions", label: "terms" },
  { to: "/ClearCache", label: "clearData" },
] as const;

/** The policies every footer links to, as a list (a list of links stands in a row when `className` says so). */
export function PolicyLinks({ className = "mt-2 space-y-1" }: { className?: string }) {
  const t = useTranslations("common.footer");
  return (
    <nav aria-label={t("policies")}>
      <p className="font-semibold text-slate-900">{t("policies")}</p>
      <ul className={className}>
        {POLICIES.map((p) => (
          <li key={p.to}>
            <NavLink className="link inline-block py-1" to={p.to}>
              {t(p.label)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
