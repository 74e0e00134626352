import { Menu, X } from "lucide-react";
import { useRef } from "react";
import { NavLink } from "./nav-link.tsx";

export interface MenuItem {
  to: string;
  label: string;
  end?: boolean;
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-2.5 text-base font-medium whitespace-nowrap lg:py-2 lg:text-sm ${isActive ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100"}`;

/**
 * A site's navigation: a row of links on a wide screen; on a phone, a "Menu" button that opens them
 * as a list (a <details>, so it opens without JavaScript too) and closes when a page is chosen.
 */
export function SiteMenu({ label, menu = "Menu", items }: { label: string; menu?: string; items: readonly MenuItem[] }) {
  const details = useRef<HTMLDetailsElement>(null);
  const close = () => {
    if (details.current) details.current.open = false;
  };
  const links = (
    <ul className="flex flex-col gap-1 lg:flex-row">
      {items.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} end={item.end} className={linkClass} onClick={close}>
            {item.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
  return (
    <nav aria-label={label} className="lg:flex-1">
      <div className="hidden lg:flex lg:justify-end">{links}</div>
      <details ref={details} className="group lg:hidden">
        <summary className="flex min-h-11 min-w-11 cursor-pointer list-none items-center justify-center gap-2 rounded-md border border-slate-300 px-2.5 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 sm:px-3 [&::-webkit-details-marker]:hidden">
          <Menu aria-hidden="true" className="size-5 group-open:hidden" />
          <X aria-hidden="true" className="hidden size-5 group-open:block" />
          <span className="sr-only sm:not-sr-only">{menu}</span>
        </summary>
        <div className="absolute inset-x-0 z-40 mt-3 border-b border-slate-200 bg-white px-4 pb-4 shadow-lg">{links}</div>
      </details>
    </nav>
  );
}
