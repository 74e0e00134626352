import { Link } from "../../lib/link.tsx";
import { useTranslations } from "../../i18n/use-translations.ts";
import { StepsIllustration } from "../../components/illustrations.tsx";
import { servicesContext } from "../../context.ts";
import { QUICK_STEP_COUNT, QUICK_STEPS, unfinishedStep } from "../../domain/quick-start.ts";
import { srOnly } from "../../lib/rich-text.tsx";
import { pageMeta } from "../../lib/meta.ts";
import { signedInOn } from "../../server/auth/session.server.ts";
import { pageMessages, translatorFor } from "../../web/i18n.server.ts";
import type { Route } from "./+types/index";
import { quickStartProgress } from "../../server/quick-start/progress.server.ts";

/** The steps' names and what each asks, in the catalogue (signIn.front.steps), in QUICK_STEPS' order. */
const STEP_KEYS = ["loan", "you", "pin", "income", "emis", "offer", "consent"] as const satisfies { length: typeof QUICK_STEPS.length };

/** The quick start's front page: what it asks, and Start (or Continue where you left off). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const t = translatorFor(context, "signIn");
  const page = {
    messages: pageMessages(context, ["signIn"]),
    meta: { title: t("front.meta.title"), description: t("front.meta.description") },
  };
  const signedIn = await signedInOn(services, request);
  if (!signedIn?.user.mobileVerifiedAt) return { ...page, resume: null, finished: false };
  const progress = await quickStartProgress(services, signedIn.user.id);
  const step = unfinishedStep(progress);
  return {
    ...page,
    resume: step === null ? null : { step, completed: progress?.completedSteps ?? 0 },
    finished: Boolean(progress?.continuedAt),
  };
}

export default function QuickStart({ loaderData }: Route.ComponentProps) {
  const { resume, finished } = loaderData;
  const t = useTranslations("signIn.front");
  const started = resume && resume.completed > 0;
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-2xl sm:text-3xl">{t("heading")}</h1>
        <StepsIllustration className="hidden h-24 w-auto shrink-0 sm:block" />
      </div>
      <p className="mt-3 text-slate-700">{t("intro", { count: String(QUICK_STEP_COUNT) })}</p>
      <ol className="card mt-6 space-y-3">
        {STEP_KEYS.map((key, i) => (
          <li key={key} className="flex gap-3">
            <span
              className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-50 font-semibold text-brand-800"
              aria-hidden="true"
            >
              {i + 1}
            </span>
            <span>
              <span className="block font-semibold">
                {t.rich("stepTitle", { number: String(i + 1), title: t(`steps.${key}.title`), hidden: srOnly })}
                {finished || (resume && i < resume.completed) ? (
                  <span className="ml-2 text-sm font-normal text-money-700">{t("done")}</span>
                ) : null}
              </span>
              <span className="block text-slate-700">{t(`steps.${key}.what`)}</span>
            </span>
          </li>
        ))}
      </ol>
      <p className="mt-4 text-sm text-slate-700">{t("handy")}</p>
      <p className="mt-2 text-sm text-slate-700">{t("afterOffer")}</p>
      {finished ? (
        <>
          <p className="mt-6" role="status">
            {t("finished")}
          </p>
          <Link to="/User/Dashboard" className="btn-primary mt-4 w-full sm:w-auto">
            {t("dashboard")}
          </Link>
        </>
      ) : (
        <Link to="/quickStart/components" className="btn-primary mt-6 w-full sm:w-auto">
          {started && resume
            ? t("continueAt", { number: String(resume.step + 1), title: t(`steps.${STEP_KEYS[resume.step] ?? "loan"}.title`) })
            : t("start")}
        </Link>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.meta.title ?? "", loaderData?.meta.description);
