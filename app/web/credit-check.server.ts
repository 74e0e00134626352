// The credit check's form (docs/product.md "Credit policy"), answered the same way wherever an
// offer needs it (the quick start's offer, a new loan's Step0): the consent parsed with its schema,
// the checks run, and back to the page that shows the offer.
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { AppServices, Client } from "../context.ts";
import { bureauConsentSchema } from "../domain/kyc/profile-schema.ts";
import { consentAndPull } from "../server/credit/pull.server.ts";
import { redirectWithToast } from "./flash.server.ts";
import { languageOfRequest } from "./i18n.server.ts";
import { translator } from "../i18n/messages.server.ts";

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
  const t = translator(languageOfRequest(request), "applyFlow");
  switch (result.state) {
    case "waiting":
      return redirectWithToast(services.config, request, then, {
        type: "info",
        title: t("creditCheck.slow"),
        description: t("creditCheck.slowMore"),
      });
    case "no_consent":
      // consentAndPull records the consent first: only a withdrawal racing this form lands here.
      return redirectWithToast(services.config, request, then, {
        type: "error",
        title: t("creditCheck.withdrawn"),
      });
    case "no_profile":
      return redirectWithToast(services.config, request, then, { type: "error", title: t("creditCheck.identityFirst") });
    default:
      return redirectWithToast(services.config, request, then, { type: "success", title: t("creditCheck.done") });
  }
}
