/**
 * What every new-loan step does first: the kind from the path, a well-formed
 * reference, the signed-in borrower's own application (404 otherwise), and a
 * status that allows the step (otherwise off to the step that fits).
 */
import { data, redirect, type RouterContextProvider } from "react-router";
import { requestContext, servicesContext } from "../../context.ts";
import {
  type FlowState,
  fittingStep,
  kindOfPath,
  parseReference,
  type Step,
  stepAllowed,
  stepPath,
} from "../../domain/loans/application.ts";
import { hmac, safeEqual } from "../crypto.server.ts";
import { pageOf, signedInContext } from "../auth/session.server.ts";
import type { Config } from "../../../server/config.ts";
import { redirectWithToast } from "../flash.server.ts";
import { loadCompleteness } from "../kyc/completeness.server.ts";
import { renderAgreementPdf } from "../pdf/pdf.server.ts";
import { cancelApplication, currentDocumentInfo, issueDocument, loadOwnedApplication } from "./applications.server.ts";

/** 404 with "Page Not Found: {fullPath}" (the path with its query), for references and outcome pages. */
export function notFoundFullPath(request: Request): never {
  const page = pageOf(request);
  throw data({ message: `Page Not Found: ${page.path}${page.search}` }, { status: 404 });
}

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
  const owned = await loadOwnedApplication(services.db, user.id, kind, reference);
  if (!owned) notFoundFullPath(request);
  const state: FlowState = {
    status: owned.application.status,
    termsSaved: Boolean(owned.application.termsSavedAt),
    detailsSaved: Boolean(owned.application.detailsSavedAt),
    hasDocument: Boolean(owned.document),
  };
  if (!stepAllowed(step, state)) throw redirect(stepPath(kind, reference, fittingStep(state)));
  return { services, request: context.get(requestContext), user, kind, reference, state, ...owned };
}

// ---- signed links for the PDF pages (PRODUCT.md §6: valid 10 minutes) ---------------------------

export const PDF_LINK_SECONDS = 10 * 60;

const linkSignature = (config: Config, path: string, expires: number) =>
  hmac(config.sessionSecret, `pdf-link:${path.toLowerCase()}:${expires}`);

/** A link to `path` that works without a session until it expires. */
export function signedPdfLink(config: Config, path: string, now: Date) {
  const expires = Math.floor(now.getTime() / 1000) + PDF_LINK_SECONDS;
  return `${path}?expires=${expires}&signature=${linkSignature(config, path, expires)}`;
}

export function validPdfLink(config: Config, url: URL, now: Date): boolean {
  const expires = Number(url.searchParams.get("expires"));
  const signature = url.searchParams.get("signature") ?? "";
  if (!Number.isInteger(expires) || expires * 1000 < now.getTime()) return false;
  return safeEqual(signature, linkSignature(config, url.pathname, expires));
}

/** The "Cancel this application" button of every step (after the confirm dialog). */
export async function cancelFromStep(loaded: Awaited<ReturnType<typeof loadStep>>, request: Request) {
  const { services, user, application, kind, reference } = loaded;
  const done = await cancelApplication(services, user.id, application.id, { ip: loaded.request.ip, userAgent: loaded.request.userAgent });
  return redirectWithToast(
    services.config,
    request,
    stepPath(kind, reference, "Step7"),
    done
      ? { type: "success", title: "Your application is cancelled." }
      : { type: "error", title: "This application can no longer be cancelled here.", description: "Contact us if you need help." },
  );
}

/** Step5 and Step6 need the profile still complete for this kind (a document may have been removed since Step1). */
export async function ensureProfileReady(loaded: Awaited<ReturnType<typeof loadStep>>, request: Request) {
  const { services, user, kind, reference } = loaded;
  const completeness = await loadCompleteness(services, user.id);
  const ready = kind === "emi" ? completeness.emi.ready : completeness.salaryAdvance.ready;
  if (!ready) {
    throw await redirectWithToast(services.config, request, stepPath(kind, reference, "Step1"), {
      type: "error",
      title: "Your profile is missing something this loan needs.",
      description: "Complete the sections listed, then continue.",
    });
  }
}

/** Issues (or keeps) the KFS; if today's terms no longer allow the chosen amount, back to Step0. */
export async function ensureDocument(loaded: Awaited<ReturnType<typeof loadStep>>, request: Request) {
  const { services, user, kind, reference, application } = loaded;
  const issued = await issueDocument(services, renderAgreementPdf, user.id, application.id);
  if (!issued.ok) {
    throw await redirectWithToast(
      services.config,
      request,
      stepPath(kind, reference, issued.reason === "offer_changed" ? "Step0" : "Step1"),
      {
        type: "error",
        title: issued.message,
      },
    );
  }
  const document = issued.documentId === loaded.document?.id ? loaded.document : await currentDocumentInfo(services.db, application.id);
  if (!document) throw new Error("The KFS was issued but cannot be read back");
  return { reissued: issued.reissued, document };
}
