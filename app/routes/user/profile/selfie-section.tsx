import { useState } from "react";
import { data, Form, useNavigation } from "react-router";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { KycSection } from "../../../components/kyc-section.tsx";
import { SelfieCamera } from "../../../components/selfie-camera.tsx";
import { servicesContext } from "../../../context.ts";
import { MAX_SELFIE_BYTES } from "../../../domain/kyc/documents.ts";
import { oversizedFile } from "../../../lib/file-size.ts";
import { formatDateIST } from "../../../domain/india-date.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { useHydrated } from "../../../lib/use-hydrated.ts";
import { useMessageText } from "../../../lib/use-message-text.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { pageMessages, translatorFor } from "../../../web/i18n.server.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { storeUpload, selfieOf } from "../../../server/kyc/documents.server.ts";
import { receiveUpload } from "../../../web/uploads.server.ts";
import type { Route } from "./+types/selfie-section";

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const selfie = await selfieOf(context.get(servicesContext), user.id);
  return {
    selfie: selfie ? { id: selfie.id, at: selfie.uploadedAt.toISOString() } : null,
    messages: pageMessages(context, ["profileSections"]),
    meta: { title: translatorFor(context, "profileSections")("selfie.title") },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const { file } = await receiveUpload(services, request, MAX_SELFIE_BYTES);
  const stored = await storeUpload(services, {
    userId: user.id,
    kind: "selfie",
    file,
    rules: { maxBytes: MAX_SELFIE_BYTES, allowed: ["image/jpeg"] },
  });
  if (!stored.ok) return data({ error: stored.message }, { status: 400 });
  return redirectWithToast(services.config, request, "/User/Profile/components/Selfie", {
    type: "success",
    title: translatorFor(context, "profileSections")("selfie.saved"),
  });
}

export default function SelfieSection({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const t = useTranslations("profileSections");
  const language = useLocale();
  const say = useMessageText();
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const error = tooLarge ?? actionData?.error;
  return (
    <KycSection title={t("selfie.title")} intro={t("selfie.intro")}>
      {loaderData.selfie ? (
        <div className="card mt-6 flex flex-wrap items-center gap-4">
          <img
            src={`/User/Profile/documents/${loaderData.selfie.id}`}
            alt={t("selfie.savedAlt")}
            className="size-24 rounded-xl object-cover"
          />
          <p>{t("selfie.savedOn", { date: formatDateIST(new Date(loaderData.selfie.at), language) })}</p>
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="mt-6 rounded-lg bg-danger-50 p-3 text-danger-600">
          {say(error)}
        </p>
      ) : null}
      {/* A new saved selfie starts the camera afresh: no "Use this photo" for a photo already saved. */}
      {hydrated ? <SelfieCamera key={loaderData.selfie?.id ?? "none"} /> : null}
      <Form
        method="post"
        encType="multipart/form-data"
        className="card mt-6 space-y-3"
        onSubmit={(event) => {
          const message = oversizedFile(event.currentTarget, MAX_SELFIE_BYTES);
          setTooLarge(message);
          if (message) event.preventDefault();
        }}
      >
        <h2 className="text-lg">{t("selfie.orUpload")}</h2>
        <label htmlFor="selfie-file" className="field-label">
          {t("selfie.file")}
        </label>
        <input id="selfie-file" name="file" type="file" accept="image/jpeg" capture="user" required className="block w-full text-sm" />
        <input type="hidden" name="kind" value="selfie" />
        <button type="submit" className="btn-secondary" disabled={navigation.state === "submitting"}>
          {t("selfie.upload")}
        </button>
      </Form>
    </KycSection>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
