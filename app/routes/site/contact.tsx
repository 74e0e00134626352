import { randomUUID } from "node:crypto";
import { getFormProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, useNavigation } from "react-router";
import { CollectionNotice } from "../../components/collection-notice.tsx";
import { Field, FormErrors, TextField } from "../../components/field.tsx";
import { LenderNote } from "../../components/lender-trust.tsx";
import { requestContext, servicesContext } from "../../context.ts";
import { formatTimeIST } from "../../domain/india-date.ts";
import { pageMeta } from "../../lib/meta.ts";
import { usePublicConfig } from "../../root.tsx";
import type { Route } from "./+types/contact";
import { pageMessages } from "../../web/i18n.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { contactSchema } from "../../domain/contact.ts";
import { raiseContactTicket } from "../../server/help/raise.server.ts";
import { useLazySchemaForm } from "../../components/use-lazy-schema-form.ts";

/** The form's one-time key: the same message sent twice (a double tap, a resend after a lost answer) is one ticket. */
export function loader({ context }: Route.LoaderArgs) {
  return { once: randomUUID(), messages: pageMessages(context, ["notice"]) };
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
    const message = `You have sent several messages in the last hour. Please try again after ${formatTimeIST(sent.resetAt)}, or call us.`;
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

  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-10 lg:grid-cols-[1fr_22rem]">
      <section aria-labelledby="contact-title">
        <h1 id="contact-title">Contact us</h1>
        <p className="mt-3 text-slate-700">
          Questions about a loan, your application or this website? Write to us and we reply within two working days. Never share a one-time
          code with anyone, including us.
        </p>
        {sent ? (
          <div className="card mt-6 space-y-3 border-money-600" role="status" data-testid="contact-sent">
            <h2 className="text-xl">Thank you. We have your message.</h2>
            {sent.reference ? (
              <p>
                Its reference is <strong className="font-mono text-lg tracking-wide">{sent.reference}</strong>. Quote it if you write or
                call us.{" "}
                {sent.emailed === true
                  ? `We have e-mailed it to ${sent.email}.`
                  : sent.emailed === false
                    ? `We have already e-mailed ${sent.email} as often as we do in a day, so this reference is not e-mailed: please note it down.`
                    : null}
              </p>
            ) : null}
            <p>We reply within two working days, and in any case within 30 days.</p>
            <p>
              <a className="link" href="/Contact-us">
                Send another message
              </a>
            </p>
          </div>
        ) : (
          <>
            <CollectionNotice className="mt-6" />
            <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
              <input type="hidden" name="once" value={loaderData.once} />
              <FormErrors id={form.errorId} errors={formErrors} />
              <TextField field={fields.name} label="Your name" autoComplete="name" />
              <TextField
                field={fields.mobile}
                label="Mobile number"
                hint="10 digits, for example 98765 43210."
                type="tel"
                autoComplete="tel-national"
                inputMode="tel"
              />
              <TextField field={fields.email} label="E-mail" type="email" autoComplete="email" />
              <Field id={fields.message.id} label="Message" errors={fields.message.errors} errorId={fields.message.errorId}>
                <textarea className="field-input min-h-32" rows={5} {...getTextareaProps(fields.message)} />
              </Field>
              <div className="absolute -left-[9999px]" aria-hidden="true">
                <label htmlFor="contact-website">Leave this field empty</label>
                <input id="contact-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
              </div>
              <button type="submit" className="btn-primary w-full sm:w-auto" disabled={navigation.state === "submitting"}>
                {navigation.state === "submitting" ? "Sending…" : "Send message"}
              </button>
              <LenderNote />
            </Form>
          </>
        )}
      </section>
      <aside aria-labelledby="contact-other" className="space-y-4">
        <h2 id="contact-other" className="text-xl">
          Other ways to reach us
        </h2>
        <div className="card text-sm leading-6">
          <p className="font-semibold">{config?.lender.name}</p>
          <p>{config?.lender.address}</p>
        </div>
        <div className="card text-sm leading-6">
          <p className="font-semibold">Complaints: grievance officer</p>
          <p>{officer?.name}</p>
          <p>
            Phone:{" "}
            <a className="link" href={`tel:${officer?.phone.replace(/\s/g, "")}`}>
              {officer?.phone}
            </a>
          </p>
          <p>
            E-mail:{" "}
            <a className="link" href={`mailto:${officer?.email}`}>
              {officer?.email}
            </a>
          </p>
          <p className="mt-2">
            Read how we handle complaints in our{" "}
            <a className="link" href="/grievance-policy">
              grievance redressal policy
            </a>
            .
          </p>
        </div>
      </aside>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Contact us", "Write to us about a loan, an application or this website.");
