import { Link } from "react-router";
import { pageMeta } from "../../lib/meta.ts";
import { usePublicConfig } from "../../root.tsx";
import type { Route } from "./+types/about";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "About us", "Who we are, how we lend and how we look after borrowers.");

export default function About() {
  const config = usePublicConfig();
  const brand = config?.brandName;
  const lender = config?.lender;
  return (
    <article className="prose-page px-4 py-10">
      <h1>About {brand}</h1>
      <p>
        {brand} is the digital lending platform of {lender?.name}, a non-banking financial company (NBFC) registered with the Reserve Bank
        of India. The loans you take through {brand} are given by {lender?.name}, on its own books, under the RBI's rules for digital
        lending.
      </p>
      <dl className="card grid gap-2 sm:grid-cols-[12rem_1fr]">
        <dt className="font-semibold">Lender</dt>
        <dd>{lender?.name}</dd>
        <dt className="font-semibold">RBI registration</dt>
        <dd>{lender?.rbiRegistration}</dd>
        <dt className="font-semibold">Corporate identity (CIN)</dt>
        <dd>{lender?.cin}</dd>
        <dt className="font-semibold">Registered office</dt>
        <dd>{lender?.address}</dd>
      </dl>

      <h2>What we offer</h2>
      <ul>
        <li>
          <strong>EMI loans</strong> for salaried and self-employed people: a fixed interest rate on the reducing balance, repaid in equal
          monthly instalments.
        </li>
        <li>
          <strong>Salary advances</strong> for salaried people: a short loan repaid in one payment on your next salary date, with interest
          only for the days you use it.
        </li>
      </ul>
      <p>The current amounts, tenures, rates and every charge are published with the product details on this site.</p>

      <h2>How we lend</h2>
      <ul>
        <li>You apply from your phone with your mobile number and a one-time code; no agent visits, no paperwork by post.</li>
        <li>
          Your offer comes from clear, written rules about age, income and existing EMIs, and we tell you why if you are not eligible.
        </li>
        <li>
          Before you sign you receive the Key Fact Statement: the amount, every fee, the annual percentage rate (APR) and the full repayment
          schedule.
        </li>
        <li>You sign the agreement with a one-time code, and a copy is sent to you.</li>
        <li>Our staff verify your details before any money moves, and we pay only into your own verified bank account.</li>
      </ul>

      <h2>Our commitments</h2>
      <ul>
        <li>No hidden charges: a charge that is not in your Key Fact Statement is not charged.</li>
        <li>Penal charges are flat charges, never added to your loan and never earning interest.</li>
        <li>You may repay early at any time, and you may exit a new loan within the cooling-off period.</li>
        <li>We never ask for access to your contacts, call logs, files or location.</li>
        <li>
          A named grievance officer answers complaints within 30 days; you can then go to the RBI Integrated Ombudsman. See our{" "}
          <Link to="/grievance-policy">grievance redressal policy</Link>.
        </li>
      </ul>
      <p>
        Read how we handle your data in our <Link to="/privacy-policy">privacy policy</Link>, or <Link to="/Contact-us">write to us</Link>.
      </p>
    </article>
  );
}
