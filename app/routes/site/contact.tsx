import { randomUUID } from "node:crypto";
import { getFormProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, useNavigation } from "react-router";
import { CollectionNotice } from "../../components/collection-notice.tsx";
import { Field, FormErrors, TextField } from "../../components/field.tsx";
import { LenderNote } from "../../components/lender-trust.tsx";
import { requestContext, servicesContext } from "../../context.ts";
import { formatTimeIST } from "../../domain/india-date.ts";
import { msg } from "../../i18n/form-message.ts";
import { pageMeta } from "../../lib/meta.ts";
import { linkTo, mailLink, strongWith, telLink } from "../../lib/rich-text.tsx";
import { usePublicConfig } from "../../root.tsx";
import type { Route } from "./+types/contact";
import { readForm } from "../../web/forms.server.ts";
import { contactSchema } from "../../domain/contact.ts";
import { raiseContactTicket } from "../../server/help/raise.server.ts";
import { useLazySchemaForm } from "../../components/use-lazy-schema-form.ts";
import { pageMessages, pageMetaText } from "../../web/i18n.server.ts";
import { useTranslations } from "../../i18n/use-translations.ts";

/** The form's one-time key: the same message sent twice (a double tap, a resend after a lost answer) is one ticket. */
export function loader({ context }: Route.LoaderArgs) {
  return { once: randomUUID(), messages: pageMessages(context, ["contact", "notice"]), meta: pageMetaText(context, "contact") };
}

/**
 * The message becomes a ticket (docs/product.md "Help and grievances"); the answer is the page with
 * its reference, not a redirect, so the reference stays in front of the person who sent it.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const submission = parseWithZod(await readForm(request), { schema: contactSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), sent: null }, { status: 400 });
  const sent = await raiseContactTicket(services, { input: submission.value, client: context.get(requestContext) });
  if (!sent.ok) {
    const message = msg("contact.errors.tooMany", { time: formatTimeIST(sent.resetAt) });
    return data({ result: submission.reply({ formErrors: [message] }), sent: null }, { status: 429 });
  }
  return { result: null, sent: { reference: sent.reference, email: submission.value.email, emailed: sent.emailed } };
}

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const config = usePublicConfig();
  const navigation = useNavigation();
  const { form, fields, formErrors } = useLazySchemaForm({
    schema: () => import("../../domain/contact.ts").then((m) => m.contactSchema),
    lastResult: actionData?.result,
  });
  const officer = config?.lender.grievanceOfficer;
  const sent = navigation.state === "idle" ? actionData?.sent : null;
  const t = useTranslations("contact");

  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-10 lg:grid-cols-[1fr_22rem]">
      <section aria-labelledby="contact-title">
        <h1 id="contact-title">{t("heading")}</h1>
        <p className="mt-3 text-slate-700">{t("intro")}</p>
        {sent ? (
          <div className="card mt-6 space-y-3 border-money-600" role="status" data-testid="contact-sent">
            <h2 className="text-xl">{t("sent.heading")}</h2>
            {sent.reference ? (
              <p>
                {t.rich("sent.reference", { reference: sent.reference, ref: referenceTag })}
                {sent.emailed === true
                  ? ` ${t("sent.emailed", { email: sent.email })}`
                  : sent.emailed === false
                    ? ` ${t("sent.notEmailed", { email: sent.email })}`
                    : null}
              </p>
            ) : null}
            <p>{t("sent.replyWithin")}</p>
            <p>
              <a className="link" href="/Contact-us">
                {t("sent.another")}
              </a>
            </p>
          </div>
        ) : (
          <>
            <CollectionNotice className="mt-6" />
            <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
              <input type="hidden" name="once" value={loaderData.once} />
              <FormErrors id={form.errorId} errors={formErrors} />
              <TextField field={fields.name} label={t("form.name")} autoComplete="name" />
              <TextField
                field={fields.mobile}
                label={t("form.mobile")}
                hint={t("form.mobileHint")}
                type="tel"
                autoComplete="tel-national"
                inputMode="tel"
              />
              <TextField field={fields.email} label={t("form.email")} type="email" autoComplete="email" />
              <Field id={fields.message.id} label={t("form.message")} errors={fields.message.errors} errorId={fields.message.errorId}>
                <textarea className="field-input min-h-32" rows={5} {...getTextareaProps(fields.message)} />
              </Field>
              <div className="absolute -left-[9999px]" aria-hidden="true">
                <label htmlFor="contact-website">{t("form.leaveEmpty")}</label>
                <input id="contact-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
              </div>
              <button type="submit" className="btn-primary w-full sm:w-auto" disabled={navigation.state === "submitting"}>
                {navigation.state === "submitting" ? t("form.sending") : t("form.send")}
              </button>
              <LenderNote />
            </Form>
          </>
        )}
      </section>
      <aside aria-labelledby="contact-other" className="space-y-4">
        <h2 id="contact-other" className="text-xl">
          {t("other.heading")}
        </h2>
        <div className="card text-sm leading-6">
          <p className="font-semibold">{config?.lender.name}</p>
          <p>{config?.lender.address}</p>
        </div>
        <div className="card text-sm leading-6">
          <p className="font-semibold">{t("other.complaints")}</p>
          <p>{officer?.name}</p>
          <p>{t.rich("other.phone", { phone: officer?.phone ?? "", tel: telLink(officer?.phone ?? "") })}</p>
          <p>{t.rich("other.email", { email: officer?.email ?? "", mail: mailLink(officer?.email ?? "", "link") })}</p>
          <p className="mt-2">{t.rich("other.policy", { link: policyLink })}</p>
        </div>
      </aside>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.meta.title ?? "", loaderData?.meta.description);

const referenceTag = strongWith("font-mono text-lg tracking-wide");
const policyLink = linkTo("/grievance-policy", "link");
