import { Link } from "../../../lib/link.tsx";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { servicesContext } from "../../../context.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { pageMessages, pageMetaText } from "../../../web/i18n.server.ts";
import { loadCompleteness } from "../../../server/kyc/completeness.server.ts";
import { DoneIcon, ProgressBar, useKycWords } from "../../../components/kyc-checklist.tsx";
import type { Route } from "./+types/overview";

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const completeness = await loadCompleteness(context.get(servicesContext), user.id);
  return { ...completeness, messages: pageMessages(context, ["profile"]), meta: pageMetaText(context, "profile") };
}

export default function ProfileOverview({ loaderData }: Route.ComponentProps) {
  const { sections, completeCount, emi, salaryAdvance } = loaderData;
  const t = useTranslations("profile");
  const { itemLabel, gapText } = useKycWords();
  // What each loan still needs: the names of its checklist's items not done (the checklist's own words).
  const stillNeeded = (need: typeof emi) =>
    need.ready
      ? t("needs.ready")
      : t("needs.stillNeeded", {
          items: need.checklist
            .filter((i) => !i.done)
            .map(itemLabel)
            .join(", "),
        });
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl sm:text-3xl">{t("heading")}</h1>
        <p className="mt-2 text-slate-700" data-testid="kyc-progress">
          {t("progress", { done: String(completeCount), total: String(sections.length) })}
        </p>
        <div className="mt-3">
          <ProgressBar
            done={completeCount}
            of={sections.length}
            label={t("progressLabel")}
            valueText={t("checklist.progress", { done: String(completeCount), total: String(sections.length) })}
          />
        </div>
      </div>
      <section aria-labelledby="needs-title" className="card">
        <h2 id="needs-title" className="text-xl">
          {t("needs.heading")}
        </h2>
        <dl className="mt-3 space-y-3">
          <div>
            <dt className="font-semibold">{t("needs.emi")}</dt>
            <dd data-testid="emi-ready">{stillNeeded(emi)}</dd>
          </div>
          <div>
            <dt className="font-semibold">{t("needs.salaryAdvance")}</dt>
            <dd data-testid="sa-ready">{stillNeeded(salaryAdvance)}</dd>
          </div>
        </dl>
      </section>
      <ul className="space-y-3" aria-label={t("sectionList")}>
        {sections.map((s) => (
          <li key={s.name} className="card flex items-start gap-3">
            <DoneIcon done={s.complete} className="size-6" />
            <div className="flex-1">
              <h2 className="text-lg">
                <Link className="link" to={s.href}>
                  {t(`sections.${s.name}`)}
                </Link>
                <span className="sr-only"> {s.complete ? t("sectionComplete") : t("sectionIncomplete")}</span>
              </h2>
              <p className="text-sm text-slate-700">
                {s.complete ? t("complete") : t("missing", { items: s.gaps.map(gapText).join("; ") })}
              </p>
            </div>
          </li>
        ))}
      </ul>
      <section aria-labelledby="privacy-link-title" className="card">
        <h2 id="privacy-link-title" className="text-lg">
          <Link className="link" to="/User/Profile/privacy">
            {t("privacy.link")}
          </Link>
        </h2>
        <p className="text-sm text-slate-700">{t("privacy.text")}</p>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
