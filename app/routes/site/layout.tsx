import type { ReactNode } from "react";
import { NavLink, Outlet, useRouteLoaderData, useSearchParams } from "react-router";
import { DISPLACED_MESSAGE } from "../../lib/displaced.ts";
import { ErrorView } from "../../components/error-view.tsx";
import { GrievanceOfficer, PolicyLinks } from "../../components/lender-trust.tsx";
import { SiteMenu } from "../../components/site-menu.tsx";
import { servicesContext } from "../../context.ts";
import { isStaffRole } from "../../domain/roles.ts";
import { usePublicConfig } from "../../root.tsx";
import { signedInOn } from "../../server/auth/session.server.ts";
import { hasSessionCookie } from "../../server/cookie-names.ts";
import type { Route } from "./+types/layout";
import { ICON_URL } from "../../lib/icon.ts";

const NAV = [
  { to: "/", label: "Home", end: true },
  { to: "/EmiCalculator", label: "EMI calculator" },
  { to: "/Rate-terms", label: "Rates" },
  { to: "/About", label: "About us" },
  { to: "/Contact-us", label: "Contact" },
];

/**
 * Who is looking, so that a signed-in borrower (or staff member) is shown the way back to their
 * account instead of "Sign in". A request without a cookie costs nothing.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!hasSessionCookie(request.headers.get("Cookie"))) return { account: null };
  const signedIn = await signedInOn(context.get(servicesContext), request);
  if (!signedIn) return { account: null };
  return { account: isStaffRole(signedIn.user.role) ? ("staff" as const) : ("borrower" as const) };
}

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
  const account = useRouteLoaderData<typeof loader>("routes/site/layout")?.account ?? null;
  const [search] = useSearchParams();
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <header className="relative border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center gap-x-2 px-4 py-3 sm:gap-x-3">
          <NavLink
            to="/"
            className="mr-auto flex items-center gap-2 text-lg font-bold whitespace-nowrap text-brand-800 sm:text-xl"
            aria-label={`${brand} home`}
          >
            <img src={ICON_URL} alt="" width={32} height={32} className="rounded-lg" />
            {brand}
          </NavLink>
          <div className="flex items-center gap-2 lg:order-last">
            {account === "borrower" ? (
              <NavLink to="/User/Dashboard" className="btn-primary min-h-11 px-3 py-1.5 text-sm whitespace-nowrap sm:px-4">
                <span className="sm:hidden">Account</span>
                <span className="hidden sm:inline">Your account</span>
              </NavLink>
            ) : account === "staff" ? (
              <NavLink to="/admin" className="btn-primary min-h-11 px-3 py-1.5 text-sm whitespace-nowrap sm:px-4">
                Back office
              </NavLink>
            ) : (
              <NavLink to="/quickStart/Otp" className="btn-primary min-h-11 px-3 py-1.5 text-sm whitespace-nowrap sm:px-4">
                Sign in
              </NavLink>
            )}
          </div>
          <SiteMenu label="Main" items={NAV} />
        </div>
      </header>
      <main id="main" className="flex-1">
        {search.get("signedOut") === "elsewhere" && !account ? (
          <div role="status" className="mx-auto mt-4 max-w-6xl px-4" data-testid="signed-out-elsewhere">
            <div className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
              <p className="font-semibold">{DISPLACED_MESSAGE}</p>
              <p className="mt-1">
                Your account was signed in on another device, so this one was signed out and its data cleared. If it was not you,{" "}
                <NavLink className="link" to="/quickStart/Otp">
                  sign in again
                </NavLink>{" "}
                and raise a ticket from Help, or call our grievance officer.
              </p>
            </div>
          </div>
        ) : null}
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
            <GrievanceOfficer />
            <p className="mt-2">We answer every complaint within 30 days.</p>
          </div>
          <PolicyLinks />
        </div>
      </footer>
    </div>
  );
}
