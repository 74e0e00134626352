import { Form, NavLink, Outlet } from "react-router";
import { ErrorView } from "../../components/error-view.tsx";
import { usePublicConfig } from "../../root.tsx";
import { requireStaffMiddleware } from "../../web/guards.server.ts";
import type { Route } from "./+types/layout";

/** Every /admin/* route needs a signed-in staff member; a borrower gets 403. */
export const middleware: Route.MiddlewareFunction[] = [requireStaffMiddleware];

export default function AdminLayout() {
  return (
    <AdminFrame>
      <Outlet />
    </AdminFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <main id="main">
      <ErrorView error={error} />
    </main>
  );
}

function AdminFrame({ children }: { children: React.ReactNode }) {
  const config = usePublicConfig();
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-700 bg-slate-900 text-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <p className="font-bold">{config?.brandName} back office</p>
          <nav aria-label="Back office" className="flex items-center gap-2">
            <NavLink to="/admin/presence" className="rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-800">
              Borrowers online
            </NavLink>
            <Form method="post" action="/auth/sign-out">
              <button type="submit" className="rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-800">
                Sign out
              </button>
            </Form>
          </nav>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
        {children}
      </main>
    </div>
  );
}
