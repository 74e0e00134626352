import { data, useLocation } from "react-router";
import { NotFound } from "../../components/not-found.tsx";
import type { Route } from "./+types/not-found";

export function loader({ request }: Route.LoaderArgs) {
  return data({ path: new URL(request.url).pathname }, { status: 404 });
}

export default function NotFoundPage({ loaderData }: Route.ComponentProps) {
  const location = useLocation();
  return (
    <div className="mx-auto max-w-3xl px-4 py-16">
      <NotFound message={`Page not found: ${loaderData?.path ?? location.pathname}`} />
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Page not found" }, { name: "robots", content: "noindex" }];
