import type { ReactNode } from "react";
import { Link } from "../lib/link.tsx";
import { usePublicConfig } from "../root.tsx";
import { ICON_URL } from "../lib/icon.ts";

/**
 * The back office's header: the brand (logo and name, linking to the staff
 * home) and, for a signed-in staff member, what `children` holds (navigation,
 * who is signed in). The sign-in and enrolment pages show the brand alone.
 */
export function StaffHeader({ children }: { children?: ReactNode }) {
  const brand = usePublicConfig()?.brandName ?? "";
  return (
    <header className="border-b border-slate-700 bg-slate-900 text-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3">
        <Link to="/admin" className="flex items-center gap-2 font-bold" aria-label={`${brand} back office home`}>
          <img src={ICON_URL} alt="" width={28} height={28} className="rounded-md" />
          <span>
            {brand} <span className="font-normal text-slate-300">back office</span>
          </span>
        </Link>
        {children}
      </div>
    </header>
  );
}
