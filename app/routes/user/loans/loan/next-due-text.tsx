import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../../i18n/use-translations.ts";
import { longDate } from "../../../../domain/india-date.ts";
import type { NextDue } from "../../../../domain/loans/next-due.ts";
import { formatRupees } from "../../../../domain/money.ts";

/**
 * The "Next due" figure of a borrower's loan, in the page's language: the amount left to pay and
 * its date, and how much of the instalment the advance held already pays (staff read
 * `nextDueText` of app/domain/loans/next-due.ts).
 */
export function NextDueText({ next }: { next: NextDue | null }) {
  const t = useTranslations("loans");
  const language = useLocale();
  if (!next) return t("nextDue.none");
  const date = longDate(next.dueDate, language);
  const amount = formatRupees(next.amountPaise);
  if (next.coveredPaise === 0) return t("nextDue.due", { amount, date });
  const instalment = formatRupees(next.instalmentPaise);
  if (next.amountPaise === 0) return t("nextDue.covered", { instalment, date });
  return t("nextDue.partlyCovered", { amount, date, covered: formatRupees(next.coveredPaise), instalment });
}
