import { data } from "react-router";
import { useTranslations } from "../../i18n/use-translations.ts";
import { HOME_SECTIONS, HomeSections } from "../../components/home/sections.tsx";
import { servicesContext } from "../../context.ts";
import { pageMeta } from "../../lib/meta.ts";
import { loadHomeData } from "../../server/home.server.ts";
import { pageMessages, translatorFor } from "../../web/i18n.server.ts";
import type { Route } from "./+types/home-section";

/** /homeComponents/{section}: one home section alone; "component" is all of them. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const wanted = params.section.toLowerCase();
  const section = wanted === "component" ? null : HOME_SECTIONS.find((s) => s.name.toLowerCase() === wanted);
  if (section === undefined) {
    throw data({ path: new URL(request.url).pathname }, { status: 404 });
  }
  const t = translatorFor(context, "home");
  return {
    ...(await loadHomeData(context.get(servicesContext))),
    section: section?.name ?? null,
    messages: pageMessages(context, ["home", "calculator"]),
    // A section is part of the home page: the home page's description.
    meta: { title: section ? t(`sections.${section.name}`) : t("meta.title"), description: t("meta.description") },
  };
}

export default function HomeSection({ loaderData }: Route.ComponentProps) {
  const { section } = loaderData;
  const t = useTranslations("home");
  return (
    <>
      {section && section !== "top" ? (
        <div className="mx-auto max-w-6xl px-4 pt-8">
          <h1 className="text-2xl sm:text-3xl">{t(`sections.${section}`)}</h1>
        </div>
      ) : null}
      <HomeSections {...loaderData} only={section ?? undefined} />
    </>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.meta.title ?? "", loaderData?.meta.description);
