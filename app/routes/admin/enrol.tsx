import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { z } from "zod";
import { StaffHeader } from "../../components/staff-header.tsx";
import { TextField } from "../../components/field.tsx";
import { requestContext, servicesContext } from "../../context.ts";
import { passwordLengthProblem } from "../../domain/validators/password.ts";
import { pageMeta } from "../../lib/meta.ts";
import { passwordProblem, setPasswordByEnrolToken, userForEnrolToken } from "../../server/auth/staff.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import type { Route } from "./+types/enrol";
import { readForm } from "../../web/forms.server.ts";
import { useSchemaForm } from "../../components/use-schema-form.ts";

export const enrolSchema = z
  .object({
    password: z.string({ error: "Choose a password." }).superRefine((v, ctx) => {
      const problem = passwordLengthProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
    password_confirm: z.string({ error: "Type the password again." }),
  })
  .refine((v) => v.password === v.password_confirm, { path: ["password_confirm"], message: "The two passwords are not the same." });

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = await userForEnrolToken(context.get(servicesContext), params.token);
  if (!user) throw data({ message: "This link is not valid or has expired." }, { status: 404 });
  return { email: user.email };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const user = await userForEnrolToken(services, params.token);
  if (!user) throw data({ message: "This link is not valid or has expired." }, { status: 404 });
  const submission = parseWithZod(await readForm(request), { schema: enrolSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password", "password_confirm"] }), { status: 400 });
  const problem = passwordProblem(submission.value.password);
  if (problem)
    return data(submission.reply({ fieldErrors: { password: [problem] }, hideFields: ["password", "password_confirm"] }), { status: 400 });
  const updated = await setPasswordByEnrolToken(services, {
    token: params.token,
    password: submission.value.password,
    client: context.get(requestContext),
  });
  if (!updated) throw data({ message: "This link is not valid or has expired." }, { status: 404 });
  return redirectWithToast(services.config, request, "/admin/login", {
    type: "success",
    title: "Password set. Sign in to set up your authenticator.",
  });
}

export default function Enrol({ loaderData, actionData }: Route.ComponentProps) {
  const { form, fields } = useSchemaForm({ schema: enrolSchema, lastResult: actionData });
  return (
    <>
      <StaffHeader />
      <main id="main" className="mx-auto max-w-md px-4 py-12">
        <h1 className="text-2xl sm:text-3xl">Set your staff password</h1>
        <p className="mt-2 text-slate-700">For {loaderData.email}. At least 12 characters; common passwords are refused.</p>
        <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
          <TextField field={fields.password} label="New password" type="password" autoComplete="new-password" />
          <TextField field={fields.password_confirm} label="New password again" type="password" autoComplete="new-password" />
          <button type="submit" className="btn-primary w-full">
            Set password
          </button>
        </Form>
      </main>
    </>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Set your staff password");
