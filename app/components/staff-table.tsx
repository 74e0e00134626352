import type { ReactNode } from "react";
import { Link } from "../lib/link.tsx";

/**
 * A dense staff table: scrolls sideways inside its own focusable region on a narrow screen (the
 * page never does), one header row of columns, the rows as children.
 */
export function StaffTable({
  label,
  minWidth,
  columns,
  children,
  framed = true,
}: {
  label: string;
  /** A Tailwind min-width class, e.g. "min-w-[48rem]". */
  minWidth: string;
  columns: readonly ReactNode[];
  children: ReactNode;
  /** Inside a card already: no frame of its own. */
  framed?: boolean;
}) {
  return (
    <div
      className={`overflow-x-auto ${framed ? "rounded-2xl border border-slate-200 bg-white" : ""}`}
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      <table className={`w-full ${minWidth} text-left text-sm`}>
        <thead className="bg-slate-100 text-slate-700">
          <tr>
            {columns.map((column, i) => (
              <th key={i} scope="col" className="px-3 py-2">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">{children}</tbody>
      </table>
    </div>
  );
}

/** Previous and next page links of a paged list (each only where there is such a page). */
export function PageLinks({ prev, next }: { prev: string | null; next: string | null }) {
  if (!prev && !next) return null;
  return (
    <nav aria-label="Pages" className="flex flex-wrap gap-3">
      {prev ? (
        <Link className="btn-secondary" to={prev} rel="prev">
          Previous page
        </Link>
      ) : null}
      {next ? (
        <Link className="btn-secondary" to={next} rel="next">
          Next page
        </Link>
      ) : null}
    </nav>
  );
}
