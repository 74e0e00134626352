import type { ReactNode } from "react";
import { Form } from "react-router";
import { QueryField as DateField } from "../../components/field.tsx";
import { type ChartTable, ColumnChart, FunnelBars, HorizontalBars } from "../../components/charts.tsx";
import { daysBetween } from "../../domain/loan-math.ts";
import { longDate } from "../../domain/india-date.ts";
import { STATUS_TEXT } from "../../domain/loans/lifecycle.ts";
import { formatRupees } from "../../domain/money.ts";
import { QUICK_STEPS } from "../../domain/quick-start.ts";
import { REJECTION_REASONS } from "../../domain/review.ts";
import { servicesContext } from "../../context.ts";
import { pageMeta } from "../../lib/meta.ts";
import { REPORT_DEFAULT_DAYS, REPORT_MAX_DAYS, reportRange, reports } from "../../server/reports/reports.server.ts";
import { requirePermission } from "../../web/guards.server.ts";
import { portfolio } from "../../server/servicing/portfolio.server.ts";
import type { Route } from "./+types/reports";

/** Reports (docs/product.md "Reports"): every staff role may read them. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("reports.view")];

/** The range lives in the URL (a GET form); a bad one falls back to the last 30 days with the reason beside its field. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  const { range, problems } = reportRange({ from: params.get("from"), to: params.get("to") }, services.now());
  const [data, book] = await Promise.all([reports(services, range), portfolio(services, range)]);
  return { range, problems, limits: { maxDays: REPORT_MAX_DAYS, defaultDays: REPORT_DEFAULT_DAYS }, ...data, portfolio: book };
}

type Data = Route.ComponentProps["loaderData"];

const count = (n: number) => n.toLocaleString("en-IN");
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;
/** "22 Nov" for a day on a chart's axis (the range above gives the year). */
const shortDate = (date: string) => longDate(date).replace(/ \d{4}$/, "");
const stepName = (step: number) => `Step ${step}: ${QUICK_STEPS[step]?.title ?? ""}`;

export default function Reports({ loaderData }: Route.ComponentProps) {
  const { range, problems, limits } = loaderData;
  const days = daysBetween(range.from, range.to) + 1;
  const period = `${longDate(range.from)} to ${longDate(range.to)}`;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl sm:text-3xl">Reports</h1>
      <Form method="get" className="card grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start" aria-label="Period">
        <DateField id="from" label="From" value={range.from} problem={problems.from} />
        <DateField id="to" label="To" value={range.to} problem={problems.to} />
        <button type="submit" className="btn-primary sm:mt-6">
          Show
        </button>
        <p className="field-hint sm:col-span-3">
          India dates, both included; at most {limits.maxDays} days. Without dates, the last {limits.defaultDays} days.
        </p>
      </Form>
      <p className="text-slate-700" data-testid="report-period">
        Showing {period} ({plural(days, "day", "days")}, India time). The pipeline is as it is now.
      </p>
      <FunnelSection data={loaderData} period={period} />
      <div className="grid gap-6 lg:grid-cols-2">
        <PipelineSection data={loaderData} />
        <DecisionsSection data={loaderData} period={period} />
      </div>
      <DisbursedSection data={loaderData} period={period} />
      <PortfolioSection data={loaderData} period={period} />
    </div>
  );
}

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  const headingId = `${testId}-title`;
  return (
    <section className="card space-y-3" aria-labelledby={headingId} data-testid={testId}>
      <h2 id={headingId} className="text-xl">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg bg-slate-100 px-4 py-3 text-slate-800" data-testid="report-empty">
      {children}
    </p>
  );
}

function FunnelSection({ data, period }: { data: Data; period: string }) {
  const { steps, offerShown, continued, days } = data.funnel;
  const started = steps[0]?.viewed ?? 0;
  const any = steps.some((s) => s.viewed || s.completed) || offerShown || continued;
  const stepsTable: ChartTable = {
    head: ["Step", "Viewed", "Completed", "Drop-off"],
    rows: steps.map((s) => [stepName(s.step), count(s.viewed), count(s.completed), percentText(s.dropOff)]),
  };
  const active = days.filter((d) => d.offerShown || d.continued || d.steps.some((s) => s.viewed || s.completed));
  const daysTable: ChartTable = {
    head: ["Date", ...steps.map((s) => `Step ${s.step} viewed → completed`), "Offer shown", "Continued"],
    rows: active.map((d) => [
      longDate(d.date),
      ...d.steps.map((s) => `${count(s.viewed)} → ${count(s.completed)}`),
      count(d.offerShown),
      count(d.continued),
    ]),
    note: "Days with no quick-start activity are left out. A borrower is counted once per day.",
  };
  const worst = steps
    .map((s) => ({ s, p: s.dropOff }))
    .filter((x): x is { s: (typeof steps)[number]; p: number } => x.p !== null)
    .sort((a, b) => b.p - a.p)[0];
  return (
    <Section title="Quick-start funnel" testId="report-funnel">
      {!any ? (
        <Empty>No one used the quick start in this period.</Empty>
      ) : (
        <>
          <p className="text-slate-800" data-testid="funnel-summary">
            {plural(started, "borrower", "borrowers")} opened the first step, {count(offerShown)} {offerShown === 1 ? "was" : "were"} shown
            an offer and {count(continued)} continued into an application.
          </p>
          <FunnelBars
            testId="funnel-chart"
            summary={`Quick-start funnel, ${period}: ${steps
              .map((s) => `step ${s.step} viewed by ${s.viewed}, completed by ${s.completed}`)
              .join("; ")}.${worst ? ` The largest drop-off is at step ${worst.s.step}, ${worst.p}%.` : ""}`}
            caption="Quick-start funnel by step"
            steps={steps.map((s) => ({
              label: stepName(s.step),
              viewed: s.viewed,
              completed: s.completed,
              note: s.viewed ? `${percentText(s.dropOff)} drop-off` : "",
            }))}
            table={stepsTable}
          />
          <h3 className="pt-2">By day</h3>
          <ColumnChart
            testId="funnel-days-chart"
            summary={`Quick start per day, ${period}: ${count(days.reduce((n, d) => n + (d.steps[0]?.viewed ?? 0), 0))} first-step visits and ${count(
              days.reduce((n, d) => n + d.continued, 0),
            )} continued into an application, over ${plural(active.length, "day", "days")} with activity.`}
            caption="Quick-start funnel by day"
            series={[
              { name: "Opened the first step", tone: "light" },
              { name: "Continued into an application", tone: "brand" },
            ]}
            points={days.map((d) => ({ label: shortDate(d.date), values: [d.steps[0]?.viewed ?? 0, d.continued] }))}
            format={count}
            table={daysTable}
          />
        </>
      )}
    </Section>
  );
}

const percentText = (p: number | null) => (p === null ? "—" : `${p}%`);

function PipelineSection({ data }: { data: Data }) {
  const total = data.pipeline.reduce((n, r) => n + r.n, 0);
  return (
    <Section title="Applications by status, now" testId="report-pipeline">
      {total === 0 ? (
        <Empty>There are no applications yet.</Empty>
      ) : (
        <>
          <p className="text-slate-800">{plural(total, "application", "applications")} in all.</p>
          <HorizontalBars
            testId="pipeline-chart"
            summary={`Applications by status now: ${data.pipeline.map((r) => `${STATUS_TEXT[r.status].label} ${r.n}`).join(", ")}; ${total} in all.`}
            caption="Applications by status, now"
            bars={data.pipeline.map((r) => ({ label: STATUS_TEXT[r.status].label, value: r.n, valueText: count(r.n) }))}
            table={{
              head: ["Status", "Applications"],
              rows: data.pipeline.map((r) => [STATUS_TEXT[r.status].label, count(r.n)]),
              foot: ["Total", count(total)],
            }}
          />
        </>
      )}
    </Section>
  );
}

function DecisionsSection({ data, period }: { data: Data; period: string }) {
  const { approved, rejected, rejectedTotal } = data.decisions;
  const bars = [
    { label: "Approved", value: approved, valueText: count(approved), tone: "money" as const },
    ...rejected.map((r) => ({
      label: `Rejected: ${REJECTION_REASONS[r.reason].label}`,
      value: r.n,
      valueText: count(r.n),
      tone: "danger" as const,
    })),
  ];
  return (
    <Section title="Decisions by reason" testId="report-decisions">
      {approved + rejectedTotal === 0 ? (
        <Empty>No application was approved or rejected in this period.</Empty>
      ) : (
        <>
          <p className="text-slate-800" data-testid="decisions-summary">
            {count(approved)} approved and {count(rejectedTotal)} rejected, by the date of the decision.
          </p>
          <HorizontalBars
            testId="decisions-chart"
            summary={`Decisions, ${period}: ${bars.map((b) => `${b.label} ${b.value}`).join(", ")}.`}
            caption="Decisions by reason"
            bars={bars}
            table={{
              head: ["Decision", "Applications"],
              rows: bars.map((b) => [b.label, b.valueText]),
              foot: ["Total", count(approved + rejectedTotal)],
            }}
          />
        </>
      )}
    </Section>
  );
}

function DisbursedSection({ data, period }: { data: Data; period: string }) {
  const { days, totalPaise, totalPayouts } = data.disbursed;
  const paid = days.filter((d) => d.payouts > 0);
  const best = [...paid].sort((a, b) => b.amountPaise - a.amountPaise)[0];
  return (
    <Section title="Money disbursed per day" testId="report-disbursed">
      {totalPayouts === 0 ? (
        <Empty>No money was disbursed in this period.</Empty>
      ) : (
        <>
          <p className="text-slate-800" data-testid="disbursed-summary">
            <span className="money">{formatRupees(totalPaise)}</span> paid out in {plural(totalPayouts, "payout", "payouts")} confirmed by
            the bank, by the India date of the bank&apos;s confirmation.
          </p>
          <ColumnChart
            testId="disbursed-chart"
            summary={`Money disbursed per day, ${period}: ${formatRupees(totalPaise)} in ${plural(totalPayouts, "payout", "payouts")} on ${plural(
              paid.length,
              "day",
              "days",
            )}${best ? `; the most on ${longDate(best.date)}, ${formatRupees(best.amountPaise)}` : ""}.`}
            caption="Money disbursed per day"
            series={[{ name: "Disbursed", tone: "money" }]}
            points={days.map((d) => ({ label: shortDate(d.date), values: [d.amountPaise] }))}
            format={formatRupees}
            table={{
              head: ["Date", "Payouts", "Amount"],
              rows: paid.map((d) => [longDate(d.date), count(d.payouts), formatRupees(d.amountPaise)]),
              foot: ["Total", count(totalPayouts), formatRupees(totalPaise)],
              note: "Days with no payout are left out.",
            }}
          />
        </>
      )}
    </Section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Reports");

function PortfolioSection({ data, period }: { data: Data; period: string }) {
  const p = data.portfolio;
  const table: ChartTable = {
    head: ["Bucket", "Loans", "Principal outstanding", "Overdue and penal"],
    rows: p.buckets.map((b) => [
      b.bucket === "current" ? "Current (not past due)" : b.bucket,
      count(b.loans),
      formatRupees(b.outstandingPaise),
      formatRupees(b.overduePaise),
    ]),
    foot: [
      "All active loans",
      count(p.active),
      formatRupees(p.outstandingPaise),
      formatRupees(p.buckets.reduce((s, b) => s + b.overduePaise, 0)),
    ],
    note: "Buckets by days past due: SMA-0 1–30, SMA-1 31–60, SMA-2 61–90, NPA over 90. As of each loan's last payment or daily run.",
  };
  const worst = p.buckets.filter((b) => b.bucket !== "current").reduce((s, b) => s + b.outstandingPaise, 0);
  return (
    <Section title="Portfolio" testId="report-portfolio">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {(
          [
            ["Lent, all time", `${formatRupees(p.lent.principalPaise)} (${plural(p.lent.loans, "loan", "loans")})`],
            ["Outstanding now", `${formatRupees(p.outstandingPaise)} (${plural(p.active, "active loan", "active loans")})`],
            [
              "Collected in the period",
              `${formatRupees(p.collected.amountPaise)} (${plural(p.collected.payments, "payment", "payments")})`,
            ],
            ["Closed / written off", `${count(p.lent.closed)} / ${count(p.lent.writtenOff)}`],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-xl bg-slate-50 p-3">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      {p.active === 0 ? (
        <Empty>No active loans.</Empty>
      ) : (
        <HorizontalBars
          summary={`Principal outstanding by days past due: ${formatRupees(worst)} of ${formatRupees(p.outstandingPaise)} is on loans past due.`}
          caption={`Principal outstanding by bucket (collected figure for ${period})`}
          bars={p.buckets.map((b) => ({
            label: b.bucket === "current" ? "Current" : b.bucket,
            value: b.outstandingPaise,
            valueText: formatRupees(b.outstandingPaise),
            tone: b.bucket === "current" ? "money" : b.bucket === "NPA" ? "danger" : "brand",
          }))}
          table={table}
          testId="portfolio-chart"
        />
      )}
    </Section>
  );
}
