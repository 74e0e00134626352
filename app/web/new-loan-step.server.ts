// What every new-loan step's loader and action do first, and the answers the
// steps share: the kind from the path, a well-formed reference, the signed-in
// borrower's own application (404 otherwise), and a status that allows the
// step (otherwise off to the step that fits).
import { redirect, type RouterContextProvider } from "react-router";
import { requestContext, servicesContext } from "../context.ts";
import {
  type FlowState,
  fittingStep,
  kindOfPath,
  parseReference,
  type Step,
  stepAllowed,
  stepPath,
  stepsDone,
} from "../domain/loans/application.ts";
import { loadCompleteness } from "../server/kyc/completeness.server.ts";
import { cancelApplication } from "../server/loans/cancel.server.ts";
import { issueKfs } from "../server/loans/issue-kfs.server.ts";
import { currentDocument, ownedApplication } from "../server/loans/read.server.ts";
import { redirectWithToast } from "./flash.server.ts";
import { languageOf, languageOfRequest, pageMessages } from "./i18n.server.ts";
import { translator } from "../i18n/messages.server.ts";
import { pageOf, signedInContext } from "./guards.server.ts";
import { notFoundFullPath } from "./not-found.server.ts";

interface StepArgs {
  request: Request;
  params: { id?: string };
  context: Readonly<RouterContextProvider>;
}

export async function loadStep({ request, params, context }: StepArgs, step: Step) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const kind = kindOfPath(pageOf(request).path);
  const reference = parseReference(params.id);
  if (!kind || !reference) notFoundFullPath(request);
  const owned = await ownedApplication(services, { userId: user.id, kind, reference });
  if (!owned) notFoundFullPath(request);
  const state: FlowState = {
    status: owned.application.status,
    termsSaved: Boolean(owned.application.termsSavedAt),
    detailsSaved: Boolean(owned.application.detailsSavedAt),
    hasDocument: Boolean(owned.document),
  };
  if (!stepAllowed(step, state)) throw redirect(stepPath(kind, reference, fittingStep(state)));
  const done = stepsDone({ ...state, signed: Boolean(owned.application.signedAt) });
  return {
    services,
    request: context.get(requestContext),
    language: languageOf(context),
    user,
    kind,
    reference,
    state,
    done,
    ...owned,
  };
}
export type LoadedStep = Awaited<ReturnType<typeof loadStep>>;

/**
 * A step page's words: "applySteps" and the frame's "applyFlow" (with `more`: the profile's checklist,
 * the status words and headline, autopay's, the one-time code's refusals), and its title, in the request's language.
 */
export function stepPage(
  context: Readonly<RouterContextProvider>,
  step: Step,
  more: readonly ("profile" | "loans" | "loanAutopay" | "signIn" | "outcome")[] = [],
) {
  const t = translator(languageOf(context), "applySteps");
  return { messages: pageMessages(context, ["applySteps", "applyFlow", ...more]), meta: { title: t(`meta.${step}`) } };
}

/** The "Cancel this application" button of every step (after the confirm dialog). */
export async function cancelFromStep(loaded: LoadedStep, request: Request) {
  const { services, user, application, kind, reference } = loaded;
  const done = await cancelApplication(services, { userId: user.id, applicationId: application.id, client: loaded.request });
  const t = translator(languageOfRequest(request), "applyFlow");
  return redirectWithToast(
    services.config,
    request,
    stepPath(kind, reference, "Step7"),
    done.ok
      ? { type: "success", title: t("cancel.done") }
      : done.reason === "payout_in_flight"
        ? {
            type: "error",
            title: t("cancel.inFlight"),
            description: t("cancel.inFlightMore"),
          }
        : { type: "error", title: t("cancel.tooLate"), description: t("cancel.tooLateMore") },
  );
}

/** Step5 and Step6 need the profile still complete for this kind (a document may have been removed since Step1). */
export async function ensureProfileReady(loaded: LoadedStep, request: Request) {
  const { services, user, kind, reference } = loaded;
  const completeness = await loadCompleteness(services, user.id);
  const ready = kind === "emi" ? completeness.emi.ready : completeness.salaryAdvance.ready;
  if (!ready) {
    throw await redirectWithToast(services.config, request, stepPath(kind, reference, "Step1"), {
      type: "error",
      title: translator(languageOfRequest(request), "applySteps")("errors.profileMissing"),
      description: translator(languageOfRequest(request), "applySteps")("errors.profileMissingMore"),
    });
  }
}

/** Issues (or keeps) the KFS; if today's terms no longer allow the chosen amount, back to Step0. */
export async function ensureDocument(loaded: LoadedStep, request: Request) {
  const { services, user, kind, reference, application, language } = loaded;
  const issued = await issueKfs(services, { userId: user.id, applicationId: application.id, language });
  if (!issued.ok) {
    throw await redirectWithToast(
      services.config,
      request,
      stepPath(kind, reference, issued.reason === "offer_changed" ? "Step0" : "Step1"),
      {
        type: "error",
        title: translator(
          languageOfRequest(request),
          "applySteps",
        )(issued.reason === "offer_changed" ? "errors.offerChanged" : issued.reason === "not_draft" ? "errors.notDraft" : "errors.noFacts"),
      },
    );
  }
  const document = issued.documentId === loaded.document?.id ? loaded.document : await currentDocument(services, application.id);
  if (!document) throw new Error("The KFS was issued but cannot be read back");
  return { reissued: issued.reissued, document };
}
