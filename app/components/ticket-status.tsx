import type { ReactNode } from "react";
import { useTranslations } from "../i18n/use-translations.ts";
import { TICKET_STATUS_STAFF_LABEL, type TicketStatus } from "../domain/help.ts";
import { spanWith } from "../lib/rich-text.tsx";

const referenceTag = spanWith("font-mono text-base font-semibold tracking-wide text-slate-900");

const BADGE: Record<TicketStatus, string> = {
  open: "bg-brand-100 text-brand-900",
  in_progress: "bg-brand-100 text-brand-900",
  waiting: "bg-amber-100 text-amber-900",
  resolved: "bg-emerald-100 text-emerald-900",
  closed: "bg-slate-200 text-slate-800",
};

/** A ticket's status as a coloured label, in the words of its reader (`staff`, in English, or the borrower, in the page's language). */
export function StatusBadge({ status, staff = false }: { status: TicketStatus; staff?: boolean }) {
  const t = useTranslations("help.status");
  return (
    <span className={`rounded-full px-2.5 py-0.5 text-sm font-medium ${BADGE[status]}`} data-testid="ticket-status">
      {staff ? TICKET_STATUS_STAFF_LABEL[status] : t(status)}
    </span>
  );
}

/**
 * A ticket page's heading: its reference (to read out), its title, status, and what kind of ticket it
 * is (`kind` and `category` in the reader's words).
 */
export function TicketHeading({
  ticket: t,
  staff = false,
  children,
}: {
  ticket: { reference: string; subject: string; status: TicketStatus; kind: string; category: string };
  staff?: boolean;
  children?: ReactNode;
}) {
  const say = useTranslations("help.ticket");
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-600">
        {staff ? (
          <>
            Ticket <span className="font-mono text-base font-semibold tracking-wide text-slate-900">{t.reference}</span>
          </>
        ) : (
          say.rich("label", { reference: t.reference, ref: referenceTag })
        )}
      </p>
      <h1 className="text-2xl break-words sm:text-3xl">{t.subject}</h1>
      <p className="flex flex-wrap items-center gap-2">
        <StatusBadge status={t.status} staff={staff} />
        <span className="text-slate-700">
          {t.kind} · {t.category}
          {children}
        </span>
      </p>
    </div>
  );
}
