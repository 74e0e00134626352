import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { ConsentList, ErasurePlanList, RequestList } from "../../../components/privacy-rights.tsx";
import { CorrectionForm, ErasureForm, NomineeForm } from "../../../components/privacy-forms.tsx";
import { requestContext, servicesContext } from "../../../context.ts";
import { consentChangeSchema, CONSENT_TEXT } from "../../../domain/privacy/consents.ts";
import { correctionSchema, erasureSchema, NOMINEE_RELATIONS, nomineeSchema } from "../../../domain/privacy/requests.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { EXPORT_TEXT } from "../../../domain/privacy/export-text.ts";
import {
  changeConsent,
  consentStates,
  correctionDetails,
  currentNominee,
  erasureDetails,
  erasurePlanNow,
  PRIVACY_PATH,
  raiseRequest,
  requestsOf,
  setNominee,
} from "../../../server/privacy/rights.server.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { invalidForm, readForm } from "../../../web/forms.server.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import type { Route } from "./+types/privacy";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Your data and privacy", "Your consents, your data to download, corrections, erasure and your nominee.");

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const [consents, nominee, requests, plan] = await Promise.all([
    consentStates(services, user.id),
    currentNominee(services, user.id),
    requestsOf(services, user.id),
    erasurePlanNow(services, user.id),
  ]);
  return {
    consents: consents.map((c) => ({ ...c, at: c.at?.toISOString() ?? null })),
    nominee: nominee && { name: nominee.name, relationship: nominee.relationship, mobile: nominee.mobile, email: nominee.email },
    requests: requests.map((r) => ({ ...r, receivedAt: r.receivedAt.toISOString(), answeredAt: r.answeredAt?.toISOString() ?? null })),
    plan,
    erasureOpen: requests.some((r) => r.kind === "erasure" && r.status === "open"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const client = context.get(requestContext);
  const form = await readForm(request);
  const toast = (title: string, type: "success" | "error" | "info" = "success") =>
    redirectWithToast(services.config, request, PRIVACY_PATH, { type, title });
  switch (String(form.get("intent") ?? "")) {
    case "consent": {
      const s = parseWithZod(form, { schema: consentChangeSchema });
      if (s.status !== "success") throw data({ message: "Choose a consent to give or withdraw." }, { status: 400 });
      const changed = await changeConsent(services, { userId: user.id, ...s.value, client });
      const text = CONSENT_TEXT[s.value.purpose];
      if (!changed) return toast("Nothing changed: your answer was already that.", "info");
      return toast(s.value.granted ? text.given : text.withdrawn);
    }
    case "nominee": {
      const s = parseWithZod(form, { schema: nomineeSchema });
      if (s.status !== "success") return invalidForm("nominee", s.reply());
      if (s.value.mobile === user.mobile)
        return invalidForm("nominee", s.reply({ fieldErrors: { mobile: ["Your nominee's number must be someone else's, not yours."] } }));
      await setNominee(services, { userId: user.id, nominee: s.value });
      return toast("Your nominee is saved.");
    }
    case "remove_nominee":
      await setNominee(services, { userId: user.id, nominee: null });
      return toast("Your nominee is removed.");
    case "correction": {
      const s = parseWithZod(form, { schema: correctionSchema });
      if (s.status !== "success") return invalidForm("correction", s.reply());
      const done = await raiseRequest(services, { userId: user.id, kind: "correction", details: correctionDetails(s.value) });
      if (!done.ok)
        return invalidForm("correction", s.reply({ formErrors: ["You have 5 corrections waiting for an answer. We answer them first."] }));
      return toast(`We have your request ${done.reference}. We answer within 30 days.`);
    }
    case "erasure": {
      const s = parseWithZod(form, { schema: erasureSchema });
      if (s.status !== "success") return invalidForm("erasure", s.reply());
      const done = await raiseRequest(services, { userId: user.id, kind: "erasure", details: await erasureDetails(services, user.id) });
      if (!done.ok) return invalidForm("erasure", s.reply({ formErrors: ["Your erasure request is already being answered."] }));
      return toast(`We have your request ${done.reference}. We answer within 30 days.`);
    }
    default:
      throw data({ message: "That is not something this page does." }, { status: 400 });
  }
}

export default function Privacy({ loaderData, actionData }: Route.ComponentProps) {
  const { consents, nominee, requests, plan, erasureOpen } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <p className="text-sm">
          <Link className="link" to="/User/Profile">
            KYC profile
          </Link>{" "}
          › Your data and privacy
        </p>
        <h1 className="mt-2 text-2xl sm:text-3xl">Your data and privacy</h1>
        <p className="mt-2 text-slate-700">
          What you have agreed to, your data to download, and your rights under the Digital Personal Data Protection Act, 2023. Read our{" "}
          <Link className="link" to="/privacy-policy">
            privacy policy
          </Link>{" "}
          for what we collect and why.
        </p>
      </div>

      <section aria-labelledby="consents-title" className="card space-y-4">
        <h2 id="consents-title" className="text-xl">
          Your consents
        </h2>
        <ConsentList consents={consents} />
      </section>

      <section aria-labelledby="download-title" className="card space-y-3">
        <h2 id="download-title" className="text-xl">
          {EXPORT_TEXT.profileHeading}
        </h2>
        <p>{EXPORT_TEXT.profileIntro}</p>
        <div className="flex flex-wrap gap-3">
          {/* Files, not pages: the browser downloads them (no client navigation). */}
          <a className="btn-primary" href="/User/Profile/data/export.pdf" download>
            {EXPORT_TEXT.pdfLink}
          </a>
          <a className="btn-secondary" href="/User/Profile/data/export.json" download>
            {EXPORT_TEXT.jsonLink}
          </a>
        </div>
      </section>

      <section aria-labelledby="correct-title" className="card space-y-3">
        <h2 id="correct-title" className="text-xl">
          Correct my data
        </h2>
        <p>
          Change your details yourself in the sections of your{" "}
          <Link className="link" to="/User/Profile">
            KYC profile
          </Link>
          . For what you cannot change there, such as a payment, a charge or what we reported to a credit bureau, tell us here and we answer
          within 30 days.
        </p>
        <CorrectionForm actionData={actionData} />
      </section>

      <section aria-labelledby="nominee-title" className="card space-y-3">
        <h2 id="nominee-title" className="text-xl">
          My nominee
        </h2>
        <p>Someone who can use these rights for you if you die or cannot use them yourself.</p>
        {nominee ? (
          <div className="space-y-2" data-testid="nominee">
            <p>Your nominee:</p>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
              <dt className="font-medium">Name</dt>
              <dd>{nominee.name}</dd>
              <dt className="font-medium">Who they are to you</dt>
              <dd>{NOMINEE_RELATIONS[nominee.relationship as keyof typeof NOMINEE_RELATIONS] ?? nominee.relationship}</dd>
              <dt className="font-medium">Mobile number</dt>
              <dd>{nominee.mobile}</dd>
              {nominee.email ? (
                <>
                  <dt className="font-medium">E-mail</dt>
                  <dd className="break-all">{nominee.email}</dd>
                </>
              ) : null}
            </dl>
            <Form method="post">
              <button type="submit" name="intent" value="remove_nominee" className="btn-secondary">
                Remove my nominee
              </button>
            </Form>
          </div>
        ) : (
          <p data-testid="nominee">You have not named a nominee.</p>
        )}
        <NomineeForm actionData={actionData} saved={nominee} />
      </section>

      <section aria-labelledby="erase-title" className="card space-y-3">
        <h2 id="erase-title" className="text-xl">
          Erase my data
        </h2>
        <p>If you ask us today, this is what we erase and what the law makes us keep:</p>
        <ErasurePlanList plan={plan} />
        {erasureOpen ? (
          <p className="font-semibold">Your erasure request is being answered: see it below.</p>
        ) : (
          <ErasureForm actionData={actionData} />
        )}
      </section>

      <section aria-labelledby="requests-title" className="card space-y-3">
        <h2 id="requests-title" className="text-xl">
          My requests
        </h2>
        {requests.length ? (
          <RequestList requests={requests} />
        ) : (
          <p>You have made no requests. We answer each within 30 days; you can also write to our grievance officer.</p>
        )}
      </section>
    </div>
  );
}
