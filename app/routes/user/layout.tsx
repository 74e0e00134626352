import { CircleHelp, House, UserRound, Wallet } from "lucide-react";
import { Form, Outlet, useRouteLoaderData } from "react-router";
import { NavLink } from "../../components/nav-link.tsx";
import { GrievanceOfficer, PolicyLinks } from "../../components/lender-trust.tsx";
import { DeviceWatch } from "../../components/device-watch.tsx";
import { NotificationBell } from "../../components/notification-bell.tsx";
import { signedInContext } from "../../web/guards.server.ts";
import { requestContext, servicesContext } from "../../context.ts";
import { unreadCount } from "../../server/notifications/notify.server.ts";
import { ErrorView } from "../../components/error-view.tsx";
import { usePublicConfig } from "../../root.tsx";
import { requireBorrowerMiddleware } from "../../web/guards.server.ts";
import type { Route } from "./+types/layout";
import { ICON_URL } from "../../lib/icon.ts";
import { StaticIcon } from "../../components/static-icon.tsx";
import { useTranslations } from "../../i18n/use-translations.ts";
import { LanguageSwitch } from "../../components/language-switch.tsx";
import { linkTo } from "../../lib/rich-text.tsx";

/** Every /User/* route (and each quick-start step) needs a signed-in borrower. */
export const middleware: Route.MiddlewareFunction[] = [requireBorrowerMiddleware];

/**
 * The bell's unread count, read with the session (then kept live over the realtime channel). After
 * a form's action in the same request (a page sent without JavaScript, "Mark all as read"), read again.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { user, unread } = context.get(signedInContext);
  // The request's own method: the loaders that follow an action see a GET.
  const { method } = context.get(requestContext);
  // The frame's words (namespace "account") come with the root's: its error view shows the frame too.
  if (method === "GET" || method === "HEAD") return { unread };
  return { unread: await unreadCount(context.get(servicesContext), user.id) };
}

export default function UserLayout() {
  return (
    <UserFrame>
      <Outlet />
    </UserFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <UserFrame>
      <ErrorView error={error} />
    </UserFrame>
  );
}

/** The signed-in area's sections: a row in the header, a tab bar under it on a phone or a small tablet (with the language switch, the row needs 768 px). */
const ACCOUNT_NAV = [
  { to: "/User/Dashboard", label: "dashboard", Icon: House },
  { to: "/User/Loans", label: "loans", Icon: Wallet },
  { to: "/User/Profile", label: "profile", Icon: UserRound },
  { to: "/User/Help", label: "help", Icon: CircleHelp },
] as const;

function UserFrame({ children }: { children: React.ReactNode }) {
  const config = usePublicConfig();
  const unread = useRouteLoaderData<typeof loader>("routes/user/layout")?.unread ?? 0;
  const t = useTranslations("account");
  const common = useTranslations("common");
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        {common("skipToContent")}
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-2 px-4 pt-3 md:pb-3">
          {/* The brand takes what the bell and Sign out leave (never pushing them onto a line of their own at 360 px). */}
          <NavLink to="/User/Dashboard" className="flex min-w-0 grow basis-0 items-center gap-2 text-lg font-bold text-brand-800">
            <img src={ICON_URL} alt="" width={28} height={28} className="shrink-0 rounded-lg" />
            <span className="truncate">{config?.brandName}</span>
          </NavLink>
          <nav
            aria-label={t("nav.label")}
            className="order-last -mx-4 mt-2 grid w-[calc(100%+2rem)] grid-cols-4 border-t border-slate-200 md:order-none md:mx-0 md:mt-0 md:flex md:w-auto md:border-0"
          >
            {ACCOUNT_NAV.map(({ to, label, Icon }) => (
              <NavLink
                key={to}
                to={to}
                className={({ isActive }) =>
                  `flex min-h-12 flex-col items-center justify-center gap-0.5 px-2 py-1.5 text-xs font-medium md:flex-row md:gap-1.5 md:rounded-md md:px-3 md:py-2 md:text-sm ${isActive ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100"}`
                }
              >
                <StaticIcon icon={Icon} aria-hidden="true" className="size-5 md:size-4" />
                {t(`nav.${label}`)}
              </NavLink>
            ))}
          </nav>
          <LanguageSwitch className="shrink-0" compact />
          <NotificationBell unread={unread} />
          <Form method="post" action="/auth/sign-out" className="shrink-0">
            <button
              type="submit"
              className="min-h-11 rounded-md px-2 py-2 text-sm font-medium whitespace-nowrap text-slate-700 hover:bg-slate-100 sm:px-3"
            >
              {t("signOut")}
            </button>
          </Form>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-8">
        {children}
      </main>
      <footer className="mt-8 border-t border-slate-200 bg-white text-sm text-slate-700">
        <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:grid-cols-[1fr_auto]">
          <div>
            <p>
              {t("footer.about", {
                brand: config?.brandName ?? "",
                lender: config?.lender.name ?? "",
                registration: config?.lender.rbiRegistration ?? "",
              })}
            </p>
            <p className="mt-2">{t.rich("footer.complaint", { link: linkTo("/User/Help/new", "link") })}</p>
          </div>
          <GrievanceOfficer />
          <div className="sm:col-span-2">
            <PolicyLinks className="mt-1 flex flex-wrap gap-x-4" />
          </div>
        </div>
      </footer>
      <DeviceWatch />
    </div>
  );
}
