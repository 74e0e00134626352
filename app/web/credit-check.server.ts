// The credit check's form (docs/product.md "Credit policy"), answered the same way wherever an
// offer needs it (the quick start's offer, a new loan's Step0): the consent parsed with its schema,
// the checks run, and back to the page that shows the offer.
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { AppServices, Client } from "../context.ts";
import { bureauConsentSchema } from "../domain/kyc/profile-schema.ts";
import { consentAndPull } from "../server/credit/pull.server.ts";
import { redirectWithToast } from "./flash.server.ts";

export async function postCreditCheck({
  services,
  request,
  formData,
  userId,
  client,
  then,
}: {
  services: AppServices;
  request: Request;
  formData: FormData;
  userId: string;
  client: Client;
  then: string;
}) {
  const submission = parseWithZod(formData, { schema: bureauConsentSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await consentAndPull(services, { userId, client, then });
  switch (result.state) {
    case "waiting":
      return redirectWithToast(services.config, request, then, {
        type: "info",
        title: "The credit bureau is slow to answer",
        description: "We will send you an SMS as soon as it does. Your answers are saved.",
      });
    case "no_consent":
      // consentAndPull records the consent first: only a withdrawal racing this form lands here.
      return redirectWithToast(services.config, request, then, {
        type: "error",
        title: "Your consent for the credit check was withdrawn.",
      });
    case "no_profile":
      return redirectWithToast(services.config, request, then, { type: "error", title: "Give your name, date of birth and PAN first." });
    default:
      return redirectWithToast(services.config, request, then, { type: "success", title: "Thank you: the check is done." });
  }
}
