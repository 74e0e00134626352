import { HomeSections } from "../../components/home/sections.tsx";
import { servicesContext } from "../../context.ts";
import { pageMeta } from "../../lib/meta.ts";
import { loadHomeData } from "../../server/home.server.ts";
import { pageMessages, pageMetaText } from "../../web/i18n.server.ts";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  return {
    ...(await loadHomeData(context.get(servicesContext))),
    messages: pageMessages(context, ["home", "calculator"]),
    meta: pageMetaText(context, "home"),
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return <HomeSections {...loaderData} />;
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.meta.title ?? "", loaderData?.meta.description);
