import { useTranslations } from "../../i18n/use-translations.ts";
import { formatRupees } from "../../domain/money.ts";

/** Principal against interest as one stacked bar with a legend (text for screen readers). */
export function PrincipalInterestChart({ principalPaise, interestPaise }: { principalPaise: number; interestPaise: number }) {
  const t = useTranslations("calculator");
  const total = principalPaise + interestPaise || 1;
  const p = Math.round((principalPaise / total) * 1000) / 10;
  const i = Math.round((100 - p) * 10) / 10;
  return (
    <figure>
      <figcaption className="text-sm font-medium text-slate-700">{t("charts.split")}</figcaption>
      <div className="mt-2 flex h-4 w-full overflow-hidden rounded-full bg-slate-200" aria-hidden="true">
        <div className="bg-brand-600" style={{ width: `${p}%` }} />
        <div className="bg-amber-500" style={{ width: `${i}%` }} />
      </div>
      <ul className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <li className="flex items-center gap-2">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm bg-brand-600" />
          {t("charts.principal", { amount: formatRupees(principalPaise), percent: String(p) })}
        </li>
        <li className="flex items-center gap-2">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm bg-amber-500" />
          {t("charts.interest", { amount: formatRupees(interestPaise), percent: String(i) })}
        </li>
      </ul>
    </figure>
  );
}

/** The balance still owed after each instalment, as a line. */
export function BalanceChart({ balances, principalPaise }: { balances: number[]; principalPaise: number }) {
  const t = useTranslations("calculator");
  const width = 600;
  const height = 180;
  const n = balances.length;
  const points = [principalPaise, ...balances]
    .map((b, k) => `${((k / Math.max(1, n)) * width).toFixed(1)},${(height - (b / Math.max(1, principalPaise)) * height).toFixed(1)}`)
    .join(" ");
  const half = balances.findIndex((b) => b <= principalPaise / 2) + 1;
  return (
    <figure>
      <figcaption className="text-sm font-medium text-slate-700">{t("charts.balance")}</figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="mt-2 h-40 w-full rounded-lg bg-slate-50"
        role="img"
        aria-label={t("charts.balanceDescription", { amount: formatRupees(principalPaise), months: n, half: String(half) })}
        preserveAspectRatio="none"
      >
        <polyline points={`0,${height} ${points} ${width},${height}`} fill="rgba(29,95,209,0.12)" stroke="none" />
        <polyline points={points} fill="none" stroke="#1d5fd1" strokeWidth="3" vectorEffect="non-scaling-stroke" />
      </svg>
      <div className="flex justify-between text-xs text-slate-600" aria-hidden="true">
        <span>{t("charts.month", { month: "0" })}</span>
        <span>{t("charts.month", { month: String(n) })}</span>
      </div>
    </figure>
  );
}
