import { NavLink } from "react-router";
import { usePublicConfig } from "../root.tsx";

const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;

/** The grievance officer's name, phone and e-mail (links large enough to tap). */
export function GrievanceOfficer({ className = "" }: { className?: string }) {
  const officer = usePublicConfig()?.lender.grievanceOfficer;
  if (!officer) return null;
  return (
    <div className={className}>
      <p className="font-semibold text-slate-900">Grievance officer</p>
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
  if (!config) return null;
  const { lender } = config;
  const officer = lender.grievanceOfficer;
  return (
    <p className={`text-sm text-slate-600 ${className}`} data-testid="lender-note">
      {config.brandName} is a platform of {lender.name}, registered with the RBI ({lender.rbiRegistration}). Complaints: grievance officer{" "}
      {officer.name},{" "}
      <a className="link" href={telHref(officer.phone)}>
        {officer.phone}
      </a>
      ,{" "}
      <a className="link break-all" href={`mailto:${officer.email}`}>
        {officer.email}
      </a>
      .
    </p>
  );
}

const POLICIES = [
  { to: "/grievance-policy", label: "Grievance redressal policy" },
  { to: "/privacy-policy", label: "Privacy policy" },
  { to: "/terms-and-conditions", label: "Terms and conditions" },
  { to: "/ClearCache", label: "Clear this site's data on your device" },
] as const;

/** The policies every footer links to, as a list (a list of links stands in a row when `className` says so). */
export function PolicyLinks({ className = "mt-2 space-y-1" }: { className?: string }) {
  return (
    <nav aria-label="Policies">
      <p className="font-semibold text-slate-900">Policies</p>
      <ul className={className}>
        {POLICIES.map((p) => (
          <li key={p.to}>
            <NavLink className="link inline-block py-1" to={p.to}>
              {p.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
