import { NotFoundPage } from "../../components/not-found.tsx";
import { notFoundData } from "../../web/not-found.server.ts";
import type { Route } from "./+types/not-found";

export function loader({ request }: Route.LoaderArgs) {
  return notFoundData(request);
}

export default function NotFoundRoute({ loaderData }: Route.ComponentProps) {
  return <NotFoundPage path={loaderData?.path} />;
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title ?? "" }, { name: "robots", content: "noindex" }];
