import { Link } from "react-router";
import { servicesContext } from "../../../context.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { loadCompleteness } from "../../../server/kyc/completeness.server.ts";
import { DoneIcon, ProgressBar } from "../../../components/kyc-checklist.tsx";
import { SECTION_TITLES } from "../../../domain/kyc/completeness.ts";
import { EXPORT_TEXT } from "../../../domain/privacy/export-text.ts";
import type { Route } from "./+types/overview";

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  return loadCompleteness(context.get(servicesContext), user.id);
}

export default function ProfileOverview({ loaderData }: Route.ComponentProps) {
  const { sections, completeCount, emi, salaryAdvance } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl sm:text-3xl">Your KYC profile</h1>
        <p className="mt-2 text-slate-700" data-testid="kyc-progress">
          {completeCount} of {sections.length} sections complete.
        </p>
        <div className="mt-3">
          <ProgressBar done={completeCount} of={sections.length} label="Sections complete" />
        </div>
      </div>
      <section aria-labelledby="needs-title" className="card">
        <h2 id="needs-title" className="text-xl">
          What each loan needs
        </h2>
        <dl className="mt-3 space-y-3">
          <div>
            <dt className="font-semibold">EMI loan</dt>
            <dd data-testid="emi-ready">{emi.ready ? "Ready to apply." : `Still needed: ${emi.missing.join(", ")}.`}</dd>
          </div>
          <div>
            <dt className="font-semibold">Salary advance (no references, and only your PAN card, Aadhaar and latest salary slip)</dt>
            <dd data-testid="sa-ready">{salaryAdvance.ready ? "Ready to apply." : `Still needed: ${salaryAdvance.missing.join(", ")}.`}</dd>
          </div>
        </dl>
      </section>
      <ul className="space-y-3" aria-label="Sections">
        {sections.map((s) => (
          <li key={s.name} className="card flex items-start gap-3">
            <DoneIcon done={s.complete} className="size-6" />
            <div className="flex-1">
              <h2 className="text-lg">
                <Link className="link" to={s.href}>
                  {SECTION_TITLES[s.name]}
                </Link>
                <span className="sr-only">{s.complete ? " (complete)" : " (incomplete)"}</span>
              </h2>
              <p className="text-sm text-slate-700">{s.complete ? "Complete." : `Missing: ${s.missing.join("; ")}.`}</p>
            </div>
          </li>
        ))}
      </ul>
      <section aria-labelledby="data-title" className="card">
        <h2 id="data-title" className="text-xl">
          {EXPORT_TEXT.profileHeading}
        </h2>
        <p className="mt-2 text-slate-700">{EXPORT_TEXT.profileIntro}</p>
        <p className="mt-3 flex flex-wrap gap-x-6 gap-y-2">
          {/* Files, not pages: the browser downloads them (no client navigation). */}
          <a className="link" href="/User/Profile/data/export.pdf" download>
            {EXPORT_TEXT.pdfLink}
          </a>
          <a className="link" href="/User/Profile/data/export.json" download>
            {EXPORT_TEXT.jsonLink}
          </a>
        </p>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your KYC profile");
