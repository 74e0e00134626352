import { HomeSections } from "../../components/home/sections.tsx";
import { servicesContext } from "../../context.ts";
import { pageMeta } from "../../lib/meta.ts";
import { loadHomeData } from "../../server/home.server.ts";
import { pageMessages } from "../../web/i18n.server.ts";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  return { ...(await loadHomeData(context.get(servicesContext))), messages: pageMessages(context, ["calculator"]) };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return <HomeSections {...loaderData} />;
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "Personal loans and salary advances",
    "EMI loans and salary advances with every charge shown before you sign. Apply with your mobile number.",
  );
