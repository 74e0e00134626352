import { Link } from "react-router";
import { StepsIllustration } from "../../components/illustrations.tsx";
import { servicesContext } from "../../context.ts";
import { QUICK_STEP_COUNT, QUICK_STEPS, unfinishedStep } from "../../domain/quick-start.ts";
import { pageMeta } from "../../lib/meta.ts";
import { signedInOn } from "../../server/auth/session.server.ts";
import type { Route } from "./+types/index";
import { quickStartProgress } from "../../server/quick-start/progress.server.ts";

const WHAT: readonly string[] = [
  "The kind of loan and the amount you need.",
  "Your name, date of birth and PAN, as on your PAN card.",
  "The PIN code where you live.",
  "Whether you are salaried or self-employed, your net monthly income and salary day.",
  "The EMIs you pay now, if any.",
  "Your offer: how much you can borrow, the EMI or repayment, and the APR with all charges.",
  "Your consent to the KYC checks, then on to your loan application.",
];

/** The quick start's front page: what it asks, and Start (or Continue where you left off). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const signedIn = await signedInOn(services, request);
  if (!signedIn?.user.mobileVerifiedAt) return { resume: null, finished: false };
  const progress = await quickStartProgress(services, signedIn.user.id);
  const step = unfinishedStep(progress);
  return { resume: step === null ? null : { step, completed: progress?.completedSteps ?? 0 }, finished: Boolean(progress?.continuedAt) };
}

export default function QuickStart({ loaderData }: Route.ComponentProps) {
  const { resume, finished } = loaderData;
  const started = resume && resume.completed > 0;
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-2xl sm:text-3xl">Quick start: see your offer in a few minutes</h1>
        <StepsIllustration className="hidden h-24 w-auto shrink-0 sm:block" />
      </div>
      <p className="mt-3 text-slate-700">
        First we send a one-time code to your mobile number (this also creates your account). Then {QUICK_STEP_COUNT} short steps. Each
        answer is saved as you go: stop at any time and carry on later, on any device, after signing in again.
      </p>
      <ol className="card mt-6 space-y-3">
        {QUICK_STEPS.map((s, i) => (
          <li key={s.title} className="flex gap-3">
            <span
              className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-50 font-semibold text-brand-800"
              aria-hidden="true"
            >
              {i + 1}
            </span>
            <span>
              <span className="block font-semibold">
                <span className="sr-only">Step {i + 1}: </span>
                {s.title}
                {finished || (resume && i < resume.completed) ? (
                  <span className="ml-2 text-sm font-normal text-money-700">done</span>
                ) : null}
              </span>
              <span className="block text-slate-700">{WHAT[i]}</span>
            </span>
          </li>
        ))}
      </ol>
      <p className="mt-4 text-sm text-slate-700">Keep your PAN card handy. We never ask for your contacts, call logs, files or location.</p>
      <p className="mt-2 text-sm text-slate-700">
        After the offer, your loan application needs your full KYC profile: address, bank account, documents and a selfie (and two
        references for an EMI loan). The application shows what is left as one checklist, and your answers here are already in it.
      </p>
      {finished ? (
        <>
          <p className="mt-6" role="status">
            You have finished the quick start: your loan application is on your dashboard.
          </p>
          <Link to="/User/Dashboard" className="btn-primary mt-4 w-full sm:w-auto">
            Go to your dashboard
          </Link>
        </>
      ) : (
        <Link to="/quickStart/components" className="btn-primary mt-6 w-full sm:w-auto">
          {started && resume ? `Continue at step ${resume.step + 1}: ${QUICK_STEPS[resume.step]?.title}` : "Start the quick start"}
        </Link>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Quick start", "Apply for an EMI loan or a salary advance: seven short steps to your offer, saved as you go.");
