import { redirect } from "react-router";
import { resumeStep, quickStepPath } from "../../domain/quick-start.ts";
import { servicesContext } from "../../context.ts";
import { signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/components";
import { quickStartOf } from "../../server/quick-start/progress.server.ts";

/**
 * /quickStart/components held the step components in the original; here it
 * is where a borrower resumes: the first step not yet done (after the mobile
 * code, when not signed in).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const progress = await quickStartOf(context.get(servicesContext), user.id);
  return redirect(quickStepPath(resumeStep(progress.completedSteps)));
}
