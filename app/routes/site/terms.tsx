import { Link } from "react-router";
import { loadProducts } from "../../server/products.server.ts";
import { servicesContext } from "../../context.ts";
import { coolingOffRule } from "../../domain/loans/cooling-off.ts";
import { pageMeta } from "../../lib/meta.ts";
import { usePublicConfig } from "../../root.tsx";
import type { Route } from "./+types/terms";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Terms and conditions", "The terms of using this website and applying for a loan.");

/** The cooling-off period the terms state, from the EMI loan's product (both products share the rule). */
export async function loader({ context }: Route.LoaderArgs) {
  const { emi } = await loadProducts(context.get(servicesContext));
  return { coolingOffDays: emi.coolingOffDays };
}

export default function Terms({ loaderData }: Route.ComponentProps) {
  const config = usePublicConfig();
  const brand = config?.brandName;
  const lender = config?.lender.name;
  return (
    <article className="prose-page px-4 py-10">
      <h1>Terms and conditions</h1>
      <p>
        These terms apply to your use of {brand}, the digital lending platform of {lender}. Each loan is also governed by its own Key Fact
        Statement and loan agreement, which you read and sign before the loan is made; where they differ from these terms, the signed
        documents prevail.
      </p>

      <h2>Who can apply</h2>
      <ul>
        <li>Indian residents aged 21 to 60 years on the date of application.</li>
        <li>With a net monthly income of at least ₹15,000.</li>
        <li>Salary advances are only for salaried people, as they are repaid from the salary.</li>
      </ul>

      <h2>Your account</h2>
      <ul>
        <li>You sign in with your mobile number and a one-time code sent by SMS. Never share a code with anyone.</li>
        <li>Your account is signed in on one device at a time: signing in on a new device signs the old one out.</li>
        <li>You must give true and complete information and keep it up to date.</li>
      </ul>

      <h2>Loans, fees and charges</h2>
      <ul>
        <li>
          Every loan states, before you sign: the amount, the interest rate, each fee (a processing fee plus 18% GST, deducted from the
          amount paid out), the annual percentage rate (APR) and the full repayment schedule.
        </li>
        <li>A missed instalment or repayment attracts a flat penal charge of ₹500. It is never compounded and never earns interest.</li>
        <li>
          You may repay an EMI loan in full at any time with no foreclosure charge; a salary advance repaid early costs interest only for
          the days used.
        </li>
        <li>Cooling-off: {coolingOffRule(loaderData.coolingOffDays)}</li>
        <li>Money is paid only into the bank account in your own name that you verified with us.</li>
      </ul>

      <h2>Repayment and default</h2>
      <p>
        Instalments are due on the dates in your schedule. If a payment is late, the loan becomes overdue and is counted in days past due;
        we report repayment history to credit information companies as the law requires. Reminders and recovery follow the RBI's fair
        practices code: politely, at reasonable hours, and never with threats.
      </p>

      <h2>Using this website</h2>
      <ul>
        <li>Do not try to access another person's account or data, or to disrupt the service.</li>
        <li>We may suspend an account used for fraud or in breach of these terms.</li>
        <li>The information on this site is general; your signed documents set out your own loan.</li>
      </ul>

      <h2>Complaints, law and changes</h2>
      <p>
        Complaints are handled under our <Link to="/grievance-policy">grievance redressal policy</Link>. These terms are governed by the
        laws of India. We may change these terms; a change never alters a loan you have already signed, and we tell you of changes that
        affect you before they apply.
      </p>
      <p>
        How we use your data is explained in our <Link to="/privacy-policy">privacy policy</Link>.
      </p>
    </article>
  );
}
