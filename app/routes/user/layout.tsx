import { Form, NavLink, Outlet, useRouteLoaderData } from "react-router";
import { DeviceWatch } from "../../components/device-watch.tsx";
import { NotificationBell } from "../../components/notification-bell.tsx";
import { servicesContext } from "../../context.ts";
import { unreadCount } from "../../server/notifications/notify.server.ts";
import { signedInContext } from "../../web/guards.server.ts";
import { ErrorView } from "../../components/error-view.tsx";
import { usePublicConfig } from "../../root.tsx";
import { requireBorrowerMiddleware } from "../../web/guards.server.ts";
import type { Route } from "./+types/layout";

/** Every /User/* route (and each quick-start step) needs a signed-in borrower. */
export const middleware: Route.MiddlewareFunction[] = [requireBorrowerMiddleware];

/** The bell's unread count (then kept live over the realtime channel). */
export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
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

function UserFrame({ children }: { children: React.ReactNode }) {
  const config = usePublicConfig();
  const unread = useRouteLoaderData<typeof loader>("routes/user/layout")?.unread ?? 0;
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <NavLink to="/User/Dashboard" className="flex items-center gap-2 text-lg font-bold text-brand-800">
            <img src="/icon.svg" alt="" width={28} height={28} className="rounded-lg" />
            {config?.brandName}
          </NavLink>
          <nav aria-label="Account" className="flex items-center gap-2">
            <NavLink
              to="/User/Dashboard"
              className={({ isActive }) =>
                `rounded-md px-3 py-2 text-sm font-medium ${isActive ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100"}`
              }
            >
              Dashboard
            </NavLink>
            <NotificationBell unread={unread} />
            <Form method="post" action="/auth/sign-out">
              <button type="submit" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
                Sign out
              </button>
            </Form>
          </nav>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-8">
        {children}
      </main>
      <DeviceWatch />
    </div>
  );
}
