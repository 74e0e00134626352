import type { ReactNode } from "react";
import { Outlet, useRouteLoaderData, useSearchParams } from "react-router";
import { NavLink } from "../../components/nav-link.tsx";
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
import { useTranslations } from "../../i18n/use-translations.ts";
import { LanguageSwitch } from "../../components/language-switch.tsx";
import { linkTo } from "../../lib/rich-text.tsx";

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
  const t = useTranslations("common");
  const nav = [
    { to: "/", label: t("nav.home"), end: true },
    { to: "/EmiCalculator", label: t("nav.calculator") },
    { to: "/Rate-terms", label: t("nav.rates") },
    { to: "/About", label: t("nav.about") },
    { to: "/Contact-us", label: t("nav.contact") },
  ];
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        {t("skipToContent")}
      </a>
      <header className="relative border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center gap-x-1.5 px-3 py-3 sm:gap-x-3 sm:px-4">
          <NavLink
            to="/"
            className="mr-auto flex min-w-0 items-center gap-1.5 text-base font-bold whitespace-nowrap text-brand-800 min-[400px]:text-lg sm:text-xl"
            aria-label={t("homeLink", { brand })}
          >
            <img src={ICON_URL} alt="" width={32} height={32} className="size-7 shrink-0 rounded-lg sm:size-8" />
            <span className="truncate">{brand}</span>
          </NavLink>
          <div className="flex items-center gap-1.5 sm:gap-2 lg:order-last">
            <LanguageSwitch />
            {account === "borrower" ? (
              <NavLink to="/User/Dashboard" className="btn-primary min-h-11 px-2.5 py-1.5 text-sm whitespace-nowrap sm:px-4">
                <span className="sm:hidden">{t("account.short")}</span>
                <span className="hidden sm:inline">{t("account.long")}</span>
              </NavLink>
            ) : account === "staff" ? (
              <NavLink to="/admin" className="btn-primary min-h-11 px-2.5 py-1.5 text-sm whitespace-nowrap sm:px-4">
                {t("account.backOffice")}
              </NavLink>
            ) : (
              <NavLink to="/quickStart/Otp" className="btn-primary min-h-11 px-2.5 py-1.5 text-sm whitespace-nowrap sm:px-4">
                {t("account.signIn")}
              </NavLink>
            )}
          </div>
          <SiteMenu label={t("nav.label")} menu={t("nav.menu")} items={nav} />
        </div>
      </header>
      <main id="main" className="flex-1">
        {search.get("signedOut") === "elsewhere" && !account ? (
          <div role="status" className="mx-auto mt-4 max-w-6xl px-4" data-testid="signed-out-elsewhere">
            <div className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
              <p className="font-semibold">{t("displaced.title")}</p>
              <p className="mt-1">{t.rich("displaced.body", { link: linkTo("/quickStart/Otp", "link") })}</p>
            </div>
          </div>
        ) : null}
        {children}
      </main>
      <footer className="mt-16 border-t border-slate-200 bg-white text-sm text-slate-700">
        <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-3">
          <div>
            <p className="font-semibold text-slate-900">{brand}</p>
            <p className="mt-2">{t("footer.about", { brand, lender: lender?.name ?? "" })}</p>
            <p className="mt-2">{t("footer.rbiRegistration", { number: lender?.rbiRegistration ?? "" })}</p>
            <p>{t("footer.cin", { cin: lender?.cin ?? "" })}</p>
            <p className="mt-2">{lender?.address}</p>
          </div>
          <div>
            <GrievanceOfficer />
            <p className="mt-2">{t("footer.answerWithin")}</p>
          </div>
          <PolicyLinks />
        </div>
      </footer>
    </div>
  );
}
