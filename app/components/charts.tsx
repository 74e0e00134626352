// Small charts drawn on the server as SVG (no chart library, no script needed). Each chart is one
// image to assistive technology (role="img" with a summary in words) and carries the same numbers
// in a real table below it. The SVG stretches to the width it has (viewBox, width 100%); labels
// and numbers are HTML text, so they stay readable from a 360 px phone to a desktop.
import type { ReactNode } from "react";

/** Colours with at least 3:1 against white (bars) and a legend swatch for each. */
export type Tone = "brand" | "light" | "money" | "danger" | "muted";
const FILL: Record<Tone, string> = {
  brand: "fill-brand-700",
  light: "fill-brand-100 stroke-brand-700",
  money: "fill-money-600",
  danger: "fill-danger-600",
  muted: "fill-slate-500",
};

export interface ChartTable {
  /** Column headings; the first column's cells are row headings. */
  head: string[];
  rows: (string | number)[][];
  /** An optional totals row. */
  foot?: (string | number)[];
  /** Said above the table, e.g. which rows are left out. */
  note?: string;
}

/** The numbers behind a chart as a table, folded away under a summary (opened, it scrolls sideways on a phone). */
export function NumbersTable({ caption, table }: { caption: string; table: ChartTable }) {
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer font-medium text-brand-700 underline underline-offset-2">The numbers as a table</summary>
      {table.note ? <p className="mt-2 text-slate-700">{table.note}</p> : null}
      <div
        className="mt-2 overflow-x-auto rounded-lg border border-slate-200"
        tabIndex={0}
        role="region"
        aria-label={`${caption}, as a table`}
      >
        <table className="w-full text-left">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-100 text-slate-700">
            <tr>
              {table.head.map((h, i) => (
                <th key={h} scope="col" className={`px-2 py-1.5 @md:px-3 ${i > 0 ? "text-right" : ""}`}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {table.rows.map((row, r) => (
              <tr key={`${row[0]}-${r}`}>
                {row.map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row" className="min-w-32 px-2 py-1.5 font-normal @md:px-3">
                      {cell}
                    </th>
                  ) : (
                    <td key={i} className="px-2 py-1.5 text-right whitespace-nowrap tabular-nums @md:px-3">
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
          {table.foot ? (
            <tfoot className="border-t-2 border-slate-300 font-semibold">
              <tr>
                {table.foot.map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row" className="px-2 py-1.5 text-left @md:px-3">
                      {cell}
                    </th>
                  ) : (
                    <td key={i} className="px-2 py-1.5 text-right tabular-nums @md:px-3">
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            </tfoot>
          ) : null}
        </table>
      </div>
    </details>
  );
}

/** A chart's frame: the picture (one image, named by `summary`) and its numbers as a table. */
function ChartFrame({
  summary,
  caption,
  table,
  testId,
  children,
}: {
  summary: string;
  caption: string;
  table: ChartTable;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <figure className="@container m-0" data-testid={testId}>
      <div role="img" aria-label={summary}>
        {children}
      </div>
      <NumbersTable caption={caption} table={table} />
    </figure>
  );
}

export function Legend({ items }: { items: { name: string; tone: Tone }[] }) {
  return (
    <ul className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
      {items.map((s) => (
        <li key={s.name} className="flex items-center gap-1.5">
          <svg viewBox="0 0 12 12" className="size-3 shrink-0" aria-hidden="true" focusable="false">
            <rect x="0.5" y="0.5" width="11" height="11" rx="2" className={FILL[s.tone]} />
          </svg>
          {s.name}
        </li>
      ))}
    </ul>
  );
}

/** A horizontal bar per row, longest = the largest value: label, bar, and the value in words. */
export function HorizontalBars({
  summary,
  caption,
  bars,
  table,
  testId,
}: {
  summary: string;
  caption: string;
  bars: { label: string; value: number; valueText: string; tone?: Tone }[];
  table: ChartTable;
  testId?: string;
}) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  return (
    <ChartFrame summary={summary} caption={caption} table={table} testId={testId}>
      <ul className="space-y-2">
        {bars.map((b) => (
          <li key={b.label} className="grid grid-cols-[1fr_auto] items-center gap-x-3 @lg:grid-cols-[13rem_1fr_5rem]">
            <span className="text-sm text-slate-800">{b.label}</span>
            <span className="order-last col-span-2 @lg:order-none @lg:col-span-1">
              <Bar fraction={b.value / max} tone={b.tone ?? "brand"} />
            </span>
            <span className="text-right text-sm font-semibold text-slate-900 tabular-nums">{b.valueText}</span>
          </li>
        ))}
      </ul>
    </ChartFrame>
  );
}

/** One bar across the width it has; `inner` draws a second, darker bar inside it (the funnel's completed). */
function Bar({ fraction, tone, inner }: { fraction: number; tone: Tone; inner?: { fraction: number; tone: Tone } }) {
  const w = (f: number) => Math.max(0, Math.min(100, f * 100));
  return (
    <svg viewBox="0 0 100 10" preserveAspectRatio="none" className="block h-4 w-full" aria-hidden="true" focusable="false">
      <rect x="0" y="0" width="100" height="10" className="fill-slate-100" />
      {fraction > 0 ? <rect x="0" y="0" width={w(fraction)} height="10" className={FILL[tone]} vectorEffect="non-scaling-stroke" /> : null}
      {inner && inner.fraction > 0 ? <rect x="0" y="2.5" width={w(inner.fraction)} height="5" className={FILL[inner.tone]} /> : null}
    </svg>
  );
}

/** The quick-start funnel: per step, a light bar for those who viewed it and a dark one inside for those who completed it. */
export function FunnelBars({
  summary,
  caption,
  steps,
  table,
  testId,
}: {
  summary: string;
  caption: string;
  steps: { label: string; viewed: number; completed: number; note: string }[];
  table: ChartTable;
  testId?: string;
}) {
  const max = Math.max(1, ...steps.map((s) => Math.max(s.viewed, s.completed)));
  return (
    <ChartFrame summary={summary} caption={caption} table={table} testId={testId}>
      <Legend
        items={[
          { name: "Viewed", tone: "light" },
          { name: "Completed", tone: "brand" },
        ]}
      />
      <ol className="space-y-3">
        {steps.map((s) => (
          <li key={s.label} className="grid grid-cols-[1fr_auto] items-center gap-x-3 @lg:grid-cols-[12rem_1fr_13rem]">
            <span className="text-sm text-slate-800">{s.label}</span>
            <span className="order-last col-span-2 @lg:order-none @lg:col-span-1">
              <Bar fraction={s.viewed / max} tone="light" inner={{ fraction: s.completed / max, tone: "brand" }} />
            </span>
            <span className="text-right text-sm text-slate-800 tabular-nums">
              <span className="font-semibold text-slate-900">
                {s.viewed} → {s.completed}
              </span>{" "}
              {s.note}
            </span>
          </li>
        ))}
      </ol>
    </ChartFrame>
  );
}

/** A "nice" top of scale at or above `n`: 1, 2 or 5 times a power of ten. */
export function niceMax(n: number): number {
  if (n <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 5, 10]) if (m * p >= n) return m * p;
  return 10 * p;
}

/**
 * Columns over time (one group per day, one column per series), on a scale from 0 to a round
 * number; the scale's top and middle, and the first, middle and last day, are labelled.
 */
export function ColumnChart({
  summary,
  caption,
  points,
  series,
  format,
  table,
  testId,
}: {
  summary: string;
  caption: string;
  /** `label`: the day as shown (and in each column's tooltip); `values`: one per series. */
  points: { label: string; values: number[] }[];
  series: { name: string; tone: Tone }[];
  format: (n: number) => string;
  table: ChartTable;
  testId?: string;
}) {
  const top = niceMax(Math.max(0, ...points.flatMap((p) => p.values)));
  const slot = 10;
  const width = Math.max(1, points.length) * slot;
  const inner = points.length > 60 ? slot : slot * 0.8;
  const columnWidth = inner / Math.max(1, series.length);
  const ticks = [points[0], points[Math.floor((points.length - 1) / 2)], points[points.length - 1]].filter(
    (p, i, all): p is { label: string; values: number[] } => p !== undefined && all.indexOf(p) === i,
  );
  return (
    <ChartFrame summary={summary} caption={caption} table={table} testId={testId}>
      {series.length > 1 ? <Legend items={series} /> : null}
      <div className="flex gap-2">
        <div className="flex h-40 flex-col justify-between text-right text-xs text-slate-700 tabular-nums">
          <span className="-mt-2">{format(top)}</span>
          <span>{Number.isInteger(top / 2) ? format(top / 2) : ""}</span>
          <span className="-mb-2">{format(0)}</span>
        </div>
        <div className="min-w-0 flex-1">
          <svg viewBox={`0 0 ${width} 100`} preserveAspectRatio="none" className="block h-40 w-full" aria-hidden="true" focusable="false">
            {[0, 50, 100].map((y) => (
              <line
                key={y}
                x1="0"
                x2={width}
                y1={y}
                y2={y}
                className="stroke-slate-300"
                strokeWidth="1"
                vectorEffect="non-scaling-stroke"
              />
            ))}
            {points.map((p, i) =>
              p.values.map((v, s) => {
                if (v <= 0) return null;
                const h = (v / top) * 100;
                const tone = series[s]?.tone ?? "brand";
                return (
                  <rect
                    key={`${i}-${s}`}
                    x={i * slot + (slot - inner) / 2 + s * columnWidth}
                    y={100 - h}
                    width={columnWidth}
                    height={h}
                    className={FILL[tone]}
                    vectorEffect="non-scaling-stroke"
                  >
                    <title>{`${p.label}, ${series[s]?.name ?? ""}: ${format(v)}`}</title>
                  </rect>
                );
              }),
            )}
          </svg>
          <div className="mt-1 flex justify-between text-xs text-slate-700">
            {ticks.map((p) => (
              <span key={p.label}>{p.label}</span>
            ))}
          </div>
        </div>
      </div>
    </ChartFrame>
  );
}
