import { Form, NavLink, Outlet, useRouteLoaderData } from "react-router";
import { ErrorView } from "../../components/error-view.tsx";
import { StaffHeader } from "../../components/staff-header.tsx";
import { can, type Permission, ROLE_LABEL, type StaffRole } from "../../domain/roles.ts";
import { requireStaffMiddleware, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/layout";

/** Every /admin/* route needs a signed-in staff member (a borrower gets 403); each route then names its permission. */
export const middleware: Route.MiddlewareFunction[] = [requireStaffMiddleware];

/** The back office's sections, each shown to the roles that may open it. */
const NAV: { to: string; label: string; permission?: Permission; end?: boolean }[] = [
  { to: "/admin", label: "Home", end: true },
  { to: "/admin/applications", label: "Applications", permission: "applications.view" },
  { to: "/admin/borrowers", label: "Borrowers", permission: "borrowers.view" },
  { to: "/admin/presence", label: "Borrowers online", permission: "borrowers.manage" },
  { to: "/admin/collections", label: "Collections", permission: "collections.manage" },
  { to: "/admin/autopay", label: "Autopay", permission: "payments.manage" },
  { to: "/admin/tickets", label: "Tickets", permission: "tickets.manage" },
  { to: "/admin/reports", label: "Reports", permission: "reports.view" },
  { to: "/admin/books", label: "Books", permission: "books.view" },
  { to: "/admin/reconciliation", label: "Reconciliation", permission: "books.view" },
  { to: "/admin/bureau", label: "Bureau reporting", permission: "bureau.view" },
  { to: "/admin/aml", label: "Sanctions", permission: "aml.view" },
  { to: "/admin/privacy", label: "Data rights", permission: "privacy.view" },
  { to: "/admin/ckyc", label: "CKYC", permission: "ckyc.view" },
  { to: "/admin/audit", label: "Audit log", permission: "audit.view" },
  { to: "/admin/policy", label: "Credit policy", permission: "policy.view" },
  { to: "/admin/staff", label: "Staff", permission: "settings.manage" },
  { to: "/admin/products", label: "Products", permission: "settings.manage" },
  { to: "/admin/holidays", label: "Holidays", permission: "settings.manage" },
];

export function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const role = user.role as StaffRole;
  return {
    staff: { name: user.name ?? user.email ?? "", role, roleLabel: ROLE_LABEL[role] },
    nav: NAV.filter((item) => !item.permission || can(role, item.permission)).map((item) => ({
      to: item.to,
      label: item.label,
      end: item.end,
    })),
  };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminFrame data={loaderData}>
      <Outlet />
    </AdminFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useRouteLoaderData<typeof loader>("routes/admin/layout");
  return (
    <AdminFrame data={data}>
      <ErrorView error={error} />
    </AdminFrame>
  );
}

function AdminFrame({ data, children }: { data: Awaited<ReturnType<typeof loader>> | undefined; children: React.ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2 focus:text-slate-900"
      >
        Skip to content
      </a>
      <StaffHeader>
        {data ? (
          <>
            <nav aria-label="Back office" className="flex flex-1 flex-wrap items-center gap-1">
              {data.nav.map((item) => (
                <NavLink
                  key={item.to}
                  to={item.to}
                  end={item.end}
                  className={({ isActive }) =>
                    `rounded-md px-3 py-2 text-sm font-medium ${isActive ? "bg-slate-700 text-white" : "text-slate-200 hover:bg-slate-800"}`
                  }
                >
                  {item.label}
                </NavLink>
              ))}
            </nav>
            <div className="flex items-center gap-3 text-sm">
              <p data-testid="staff-identity">
                <span className="font-semibold">{data.staff.name}</span>
                <span className="ml-2 rounded bg-slate-700 px-2 py-0.5 text-xs font-medium">{data.staff.roleLabel}</span>
              </p>
              <Form method="post" action="/auth/sign-out">
                <button type="submit" className="rounded-md px-3 py-2 font-medium hover:bg-slate-800">
                  Sign out
                </button>
              </Form>
            </div>
          </>
        ) : null}
      </StaffHeader>
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-8">
        {children}
      </main>
    </div>
  );
}
