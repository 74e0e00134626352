// What every quick-start step's loader and action share: the signed-in
// borrower's progress (a step beyond the first not done sends them back to
// it), and the POST: read the form, parse it with the step's schema, call
// saveQuickStep, answer with the next page or the errors next to the fields.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import { type AppServices, requestContext, servicesContext } from "../context.ts";
import { stepPath } from "../domain/loans/application.ts";
import { OFFER_STEP, quickStepAllowed, quickStepPath, resumeStep, untouched } from "../domain/quick-start.ts";
import type { QuickStepAnswers, QuickStepNumber } from "../domain/quick-start-schemas.ts";
import { todayIST } from "../domain/india-date.ts";
import type { User } from "../server/auth/session.server.ts";
import { quickStartOf, recordFunnel } from "../server/quick-start/progress.server.ts";
import { type StepAnswers, saveQuickStep } from "../server/quick-start/save-step.server.ts";
import { redirectWithToast } from "./flash.server.ts";
import { readForm } from "./forms.server.ts";
import { signedInContext } from "./guards.server.ts";
import { pageMessages, translatorFor } from "./i18n.server.ts";

type StepArgs = { request: Request; context: Readonly<RouterContextProvider> };

/**
 * A step page's loader starts here: the borrower's progress, or a redirect to
 * the first step not done when this one is further on. Opening the page (not
 * a page shown again with a form's errors) counts as the step viewed.
 */
export async function loadQuickStep(args: StepArgs, step: QuickStepNumber) {
  const services = args.context.get(servicesContext);
  const { user } = args.context.get(signedInContext);
  const progress = await quickStartOf(services, user.id);
  if (!quickStepAllowed(step, progress.completedSteps)) throw redirect(quickStepPath(resumeStep(progress.completedSteps)));
  if (args.context.get(requestContext).method === "GET") {
    await recordFunnel(services, { userId: user.id, event: "step_viewed", step, product: progress.product });
  }
  return { services, user, progress, today: todayIST(services.now()) };
}

/** A step page's words: the "applyQuick" namespace (with `more`), and its title, in the request's language. */
export function quickStepPage(
  context: Readonly<RouterContextProvider>,
  step: QuickStepNumber,
  more: readonly ("applyFlow" | "profile")[] = [],
) {
  const t = translatorFor(context, "applyQuick");
  return { messages: pageMessages(context, ["applyQuick", ...more]), meta: { title: t(`meta.step${step}`) } };
}

/**
 * A step's POST. `schema` is the step's form schema (the browser's too), or a
 * function giving it from what the borrower saved before. Back from a step
 * left empty just goes back; otherwise the answers are checked and saved
 * (Back without marking the step done).
 */
export async function postQuickStep<N extends QuickStepNumber>(
  args: StepArgs,
  step: N,
  schema:
    z.ZodType<QuickStepAnswers[N]> | ((s: { services: AppServices; user: User; today: string }) => Promise<z.ZodType<QuickStepAnswers[N]>>),
) {
  const services = args.context.get(servicesContext);
  const { user } = args.context.get(signedInContext);
  const formData = await readForm(args.request);
  const back = formData.get("intent") === "back" && step > 0;
  if (back && untouched(formData)) throw redirect(quickStepPath(step - 1));
  const progress = await quickStartOf(services, user.id);
  if (!quickStepAllowed(step, progress.completedSteps)) throw redirect(quickStepPath(resumeStep(progress.completedSteps)));
  const today = todayIST(services.now());
  const submission = parseWithZod(formData, { schema: typeof schema === "function" ? await schema({ services, user, today }) : schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const answers = { step, answers: submission.value } as StepAnswers;
  const result = await saveQuickStep(services, { ...answers, userId: user.id, back, client: args.context.get(requestContext) });
  if (result.ok) {
    const { next } = result;
    throw redirect("step" in next ? quickStepPath(next.step) : stepPath(next.application.kind, next.application.reference, "Step0"));
  }
  switch (result.reason) {
    case "not_here":
      throw redirect(quickStepPath(result.resumeStep));
    case "invalid":
      return data(submission.reply({ fieldErrors: result.fieldErrors, formErrors: result.formErrors }), { status: 400 });
    case "offer_changed": {
      const t = translatorFor(args.context, "applyQuick");
      throw await redirectWithToast(services.config, args.request, quickStepPath(OFFER_STEP), {
        type: "info",
        title: t("errors.offerChanged.title"),
        description: t("errors.offerChanged.description"),
      });
    }
  }
}
