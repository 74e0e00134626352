import type { ReactNode } from "react";
import { Form, NavLink } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { drCr } from "../../../domain/books/reports.ts";
import { formatRupees } from "../../../domain/money.ts";

/** The finance pages, each a link from the others. */
const BOOKS_PAGES = [
  { to: "/admin/books", label: "Trial balance", end: true },
  { to: "/admin/books/journal", label: "Journal" },
  { to: "/admin/books/portfolio", label: "Portfolio" },
  { to: "/admin/books/income", label: "Income" },
  { to: "/admin/books/periods", label: "Periods" },
  { to: "/admin/books/rules", label: "Rules" },
];

/** A table cell of money: right-aligned, tabular figures, on one line. */
export const MONEY_CELL = "px-2 py-2 text-right tabular-nums whitespace-nowrap sm:px-3";
export const CELL = "px-2 py-2 sm:px-3";

/** A column heading over figures, aligned with them. */
export const right = (heading: string) => <span className="block text-right">{heading}</span>;

/** An amount, or nothing for zero (the empty side of a debit and credit pair). */
export const amount = (paise: number) => (paise === 0 ? "" : formatRupees(paise));

/** A balance (debit positive) with its side: "₹1,200 Dr", "₹0". */
export const balanceText = (balance: number) => (balance === 0 ? formatRupees(0) : `${formatRupees(Math.abs(balance))} ${drCr(balance)}`);

/** The page's title, what it shows, the way to the other finance pages and its downloads. */
export function BooksHeader({
  title,
  children,
  downloads = [],
}: {
  title: string;
  children?: ReactNode;
  downloads?: { href: string; label: string; testId: string }[];
}) {
  return (
    <div className="space-y-3">
      <nav aria-label="Books" className="flex flex-wrap gap-2 text-sm">
        {BOOKS_PAGES.map((p) => (
          <NavLink
            key={p.to}
            to={p.to}
            end={p.end}
            className={({ isActive }) =>
              `rounded-full border px-3 py-1.5 font-medium ${isActive ? "border-slate-800 bg-slate-800 text-white" : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100"}`
            }
          >
            {p.label}
          </NavLink>
        ))}
      </nav>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h1 className="text-2xl break-words sm:text-3xl">{title}</h1>
          {children ? <div className="text-slate-700">{children}</div> : null}
        </div>
        {downloads.length ? (
          <div className="flex flex-wrap gap-2">
            {downloads.map((d) => (
              <a key={d.href} className="btn-secondary" href={d.href} download data-testid={d.testId}>
                {d.label}
              </a>
            ))}
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** A GET form of filters, in a card, that works before JavaScript loads. */
export function FilterForm({ label, children, className = "" }: { label: string; children: ReactNode; className?: string }) {
  return (
    <Form method="get" className={`card grid items-start gap-4 ${className}`} role="search" aria-label={label}>
      {children}
    </Form>
  );
}

/** The form's Show button, with Clear when something is filtered. */
export function ShowButton({ clear }: { clear?: string | null }) {
  return (
    <div className="flex items-center gap-3 sm:pt-6">
      <button type="submit" className="btn-primary">
        Show
      </button>
      {clear ? (
        <Link to={clear} className="link whitespace-nowrap">
          Clear
        </Link>
      ) : null}
    </div>
  );
}

/** The loan a line is about, linked to its page (nothing for a line of no loan). */
export function LoanCell({ loanNumber }: { loanNumber: string | null }) {
  return (
    <td className={`${CELL} font-mono`}>
      {loanNumber ? (
        <Link className="link" to={`/admin/loans/${loanNumber}`}>
          {loanNumber}
        </Link>
      ) : (
        ""
      )}
    </td>
  );
}

/** A debit and a credit cell (the empty side blank). */
export function DebitCredit({ debit, credit }: { debit: number; credit: number }) {
  return (
    <>
      <td className={MONEY_CELL} data-testid="debit">
        {amount(debit)}
      </td>
      <td className={MONEY_CELL} data-testid="credit">
        {amount(credit)}
      </td>
    </>
  );
}
