import { Link } from "react-router";
import { StatusNote } from "../../components/loan-flow.tsx";
import { servicesContext } from "../../context.ts";
import { parseReference, stepPath } from "../../domain/loans/application.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatRupees } from "../../domain/money.ts";
import { readSession } from "../../server/auth/session.server.ts";
import type { Route } from "./+types/outcome";
import { notFoundFullPath } from "../../web/not-found.server.ts";
import { applicationForOutcome } from "../../server/loans/read.server.ts";

const STATES = {
  success: { title: "Done", lead: "It worked." },
  failure: { title: "That did not go through", lead: "Nothing was changed. You can try again from your application." },
  pending: {
    title: "Waiting for confirmation",
    lead: "We are waiting to hear back. This page does not change by itself: check your application in a few minutes.",
  },
  cancelled: { title: "Stopped", lead: "You stopped before finishing. Nothing was changed." },
} as const;
type State = keyof typeof STATES;

/**
 * /{state}/{id} (docs/product.md "The public site"): where outside flows come back to, and where
 * signing ends. Only the four states and the viewer's own application
 * reference; every other two-segment path is "Page Not Found: {fullPath}".
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const state = params.state.toLowerCase();
  const reference = parseReference(params.id);
  if (!(state in STATES) || !reference) notFoundFullPath(request);
  const services = context.get(servicesContext);
  const signedIn = await readSession(services, request);
  const application = signedIn ? await applicationForOutcome(services, { userId: signedIn.user.id, reference }) : null;
  if (!application) notFoundFullPath(request);
  return { state: state as State, application };
}

export default function Outcome({ loaderData }: Route.ComponentProps) {
  const { state, application: a } = loaderData;
  const signedNow = state === "success" && a.status === "signed";
  const kind = a.product;
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-12">
      <h1 className="text-2xl sm:text-3xl">{signedNow ? "You have signed your loan agreement" : STATES[state].title}</h1>
      <section className="card space-y-3" aria-labelledby="application-title">
        <h2 id="application-title" className="text-xl">
          {a.kindName} {a.amountPaise ? `of ${formatRupees(a.amountPaise)}` : ""}{" "}
          <span className="font-mono text-base text-slate-600">{a.reference.toUpperCase()}</span>
        </h2>
        {signedNow ? (
          <p>Your application is submitted. We sent the link to your signed agreement to your mobile by SMS.</p>
        ) : (
          <p>{STATES[state].lead}</p>
        )}
        <StatusNote status={a.status} reason={a.statusReason} />
      </section>
      <p className="flex flex-wrap gap-3">
        <Link className="btn-primary" to={stepPath(kind, a.reference, "Step7")}>
          See your application
        </Link>
        {a.agreementRef ? (
          <Link className="btn-secondary" to={`/Eagreement/${a.agreementRef}`}>
            Your signed agreement
          </Link>
        ) : null}
        <Link className="btn-secondary" to="/User/Dashboard">
          Dashboard
        </Link>
      </p>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(
    matches,
    loaderData ? (loaderData.state === "success" ? "Application signed" : STATES[loaderData.state].title) : "Page not found",
  );
