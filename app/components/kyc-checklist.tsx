import { CheckCircle2, Circle } from "lucide-react";
import { useCallback } from "react";
import { Link } from "../lib/link.tsx";
import { useTranslations } from "../i18n/use-translations.ts";
import type { ChecklistItem, KycGap } from "../domain/kyc/completeness.ts";
import { DOCUMENT_KINDS, type DocumentKind } from "../domain/kyc/documents.ts";

// The words of the profile's checklist are in the "profile" namespace: a page showing the checklist
// loads it (pageMessages(context, ["profile", …])).

/** A tick for what is done, an empty circle for what is not (the words beside it say which). */
export function DoneIcon({ done, className = "size-5" }: { done: boolean; className?: string }) {
  return done ? (
    <CheckCircle2 aria-hidden="true" className={`mt-0.5 shrink-0 text-money-600 ${className}`} />
  ) : (
    <Circle aria-hidden="true" className={`mt-0.5 shrink-0 text-slate-400 ${className}`} />
  );
}

/**
 * "4 of 7 done" as a bar (a progressbar to assistive technology). `valueText` says "4 of 7" in the
 * page's language ("profile.checklist.progress"); a caller that gives none gets the English.
 */
export function ProgressBar({ done, of, label, valueText }: { done: number; of: number; label: string; valueText?: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={of}
      aria-valuenow={done}
      aria-valuetext={valueText ?? `${done} of ${of}`}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div className="h-full rounded-full bg-money-600" style={{ width: `${of ? (done / of) * 100 : 0}%` }} />
    </div>
  );
}

const isDocument = (key: string): key is DocumentKind => key in DOCUMENT_KINDS;

/**
 * The profile's words for what a section or a document is and what it still lacks, in the page's
 * language: a checklist item's name, and each gap of a section or an item.
 */
export function useKycWords() {
  const t = useTranslations("profile");
  const itemLabel = useCallback(
    (item: Pick<ChecklistItem, "key" | "salaried">) =>
      isDocument(item.key) ? t(`documents.${item.key}`) : item.salaried ? t("employmentSalaried") : t(`sections.${item.key}`),
    [t],
  );
  const gapText = useCallback(
    (gap: KycGap) =>
      gap.what === "fields"
        ? gap.fields.map((field) => t(`fields.${field}`)).join(", ")
        : gap.what === "document"
          ? t(`documents.${gap.kind}`)
          : t(`gaps.${gap.what}`),
    [t],
  );
  return { t, itemLabel, gapText };
}

/**
 * What a loan still needs from the profile, as one list with its progress: each section or
 * document done (ticked) or to do (a link to the place where it is done, and what is missing).
 */
export function KycChecklist({ items, label }: { items: readonly ChecklistItem[]; label: string }) {
  const { t, itemLabel, gapText } = useKycWords();
  const done = items.filter((i) => i.done).length;
  return (
    <div className="space-y-3" data-testid="kyc-checklist">
      <p className="font-medium text-slate-900" data-testid="kyc-checklist-count">
        {t("checklist.count", { done: String(done), total: String(items.length) })}
      </p>
      <ProgressBar
        done={done}
        of={items.length}
        label={label}
        valueText={t("checklist.progress", { done: String(done), total: String(items.length) })}
      />
      <ul className="divide-y divide-slate-200" aria-label={label}>
        {items.map((i) => (
          <li key={i.key} className="flex items-start gap-3 py-2.5">
            <DoneIcon done={i.done} />
            <div className="min-w-0 flex-1">
              {i.done ? (
                <p>
                  {itemLabel(i)}
                  <span className="sr-only"> {t("checklist.done")}</span>
                </p>
              ) : (
                <>
                  <Link className="link" to={i.href}>
                    {itemLabel(i)}
                  </Link>
                  <span className="sr-only"> {t("checklist.toDo")}</span>
                  {i.gaps.length ? <p className="text-sm text-slate-600">{i.gaps.map(gapText).join("; ")}</p> : null}
                </>
              )}
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
