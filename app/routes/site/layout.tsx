import type { ReactNode } from "react";
import { NavLink, Outlet } from "react-router";
import { ErrorView } from "../../components/error-view.tsx";
import { usePublicConfig } from "../../root.tsx";

const NAV = [
  { to: "/", label: "Home", end: true },
  { to: "/EmiCalculator", label: "EMI calculator" },
  { to: "/Rate-terms", label: "Rates" },
  { to: "/About", label: "About us" },
  { to: "/Contact-us", label: "Contact" },
];

export default function SiteLayout() {
  return (
    <SiteFrame>
      <Outlet />
    </SiteFrame>
  );
}

/** Errors below the site layout keep the header and footer. */
export function ErrorBoundary({ error }: { error: unknown }) {
  return (
    <SiteFrame>
      <ErrorView error={error} />
    </SiteFrame>
  );
}

/** The public site's frame: header, main landmark, footer with the lender's legal identity. */
function SiteFrame({ children }: { children: ReactNode }) {
  const config = usePublicConfig();
  const brand = config?.brandName ?? "";
  const lender = config?.lender;
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3">
          <NavLink to="/" className="flex items-center gap-2 text-xl font-bold text-brand-800" aria-label={`${brand} home`}>
            <img src="/icon.svg" alt="" width={32} height={32} className="rounded-lg" />
            {brand}
          </NavLink>
          <NavLink to="/quickStart/Otp" className="btn-primary min-h-9 px-4 py-1.5 text-sm whitespace-nowrap lg:order-last">
            Sign in
          </NavLink>
          <nav aria-label="Main" className="-mx-2 flex w-full gap-1 overflow-x-auto lg:w-auto lg:flex-1 lg:justify-end">
            {NAV.map((item) => (
              <NavLink
                key={item.to}
                to={item.to}
                end={item.end}
                className={({ isActive }) =>
                  `rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap ${isActive ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100"}`
                }
              >
                {item.label}
              </NavLink>
            ))}
          </nav>
        </div>
      </header>
      <main id="main" className="flex-1">
        {children}
      </main>
      <footer className="mt-16 border-t border-slate-200 bg-white text-sm text-slate-700">
        <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-3">
          <div>
            <p className="font-semibold text-slate-900">{brand}</p>
            <p className="mt-2">
              {brand} is a digital lending platform of {lender?.name}, a non-banking financial company registered with the Reserve Bank of
              India.
            </p>
            <p className="mt-2">RBI registration: {lender?.rbiRegistration}</p>
            <p>CIN: {lender?.cin}</p>
            <p className="mt-2">{lender?.address}</p>
          </div>
          <div>
            <p className="font-semibold text-slate-900">Grievance officer</p>
            <p className="mt-2">{lender?.grievanceOfficer.name}</p>
            <p>
              <a className="link" href={`tel:${lender?.grievanceOfficer.phone.replace(/\s/g, "")}`}>
                {lender?.grievanceOfficer.phone}
              </a>
            </p>
            <p>
              <a className="link" href={`mailto:${lender?.grievanceOfficer.email}`}>
                {lender?.grievanceOfficer.email}
              </a>
            </p>
            <p className="mt-2">We answer every complaint within 30 days.</p>
          </div>
          <nav aria-label="Policies">
            <p className="font-semibold text-slate-900">Policies</p>
            <ul className="mt-2 space-y-1">
              <li>
                <NavLink className="link" to="/grievance-policy">
                  Grievance redressal policy
                </NavLink>
              </li>
              <li>
                <NavLink className="link" to="/privacy-policy">
                  Privacy policy
                </NavLink>
              </li>
              <li>
                <NavLink className="link" to="/terms-and-conditions">
                  Terms and conditions
                </NavLink>
              </li>
              <li>
                <NavLink className="link" to="/ClearCache">
                  Clear this site's data on your device
                </NavLink>
              </li>
            </ul>
          </nav>
        </div>
      </footer>
    </div>
  );
}
