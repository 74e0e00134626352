import { pageMeta } from "../../lib/meta.ts";
import { usePublicConfig } from "../../root.tsx";
import type { Route } from "./+types/about";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "About us", "Who we are, how we lend and how we look after borrowers.");

export default function About() {
  const config = usePublicConfig();
  return (
    <article className="prose-page px-4 py-10">
      <h1>About {config?.brandName}</h1>
      <p>Draft.</p>
    </article>
  );
}
