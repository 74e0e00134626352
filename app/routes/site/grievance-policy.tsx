import { Link } from "react-router";
import { pageMeta } from "../../lib/meta.ts";
import { usePublicConfig } from "../../root.tsx";
import type { Route } from "./+types/grievance-policy";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Grievance redressal policy", "How to complain, who answers, in how long, and how to escalate to the RBI.");

export default function GrievancePolicy() {
  const config = usePublicConfig();
  const officer = config?.lender.grievanceOfficer;
  return (
    <article className="prose-page px-4 py-10">
      <h1>Grievance redressal policy</h1>
      <p>
        {config?.lender.name} ("we") wants every complaint about {config?.brandName} handled quickly, fairly and in writing. This policy
        follows the Reserve Bank of India's directions on fair practices and digital lending.
      </p>

      <h2>Grievance officer</h2>
      <address className="card not-italic">
        <p className="font-semibold">{officer?.name}</p>
        <p>Grievance Redressal Officer, {config?.lender.name}</p>
        <p>{config?.lender.address}</p>
        <p>
          Phone: <a href={`tel:${officer?.phone.replace(/\s/g, "")}`}>{officer?.phone}</a>
        </p>
        <p>
          E-mail: <a href={`mailto:${officer?.email}`}>{officer?.email}</a>
        </p>
      </address>

      <h2>How to raise a complaint</h2>
      <ul>
        <li>
          E-mail or call the grievance officer, or use our <Link to="/Contact-us">contact form</Link> and say that it is a complaint.
        </li>
        <li>
          Tell us your name, the mobile number on your account, the loan or application reference if you have one, what went wrong and what
          you would like us to do. Attach copies of anything that helps.
        </li>
        <li>Never send us your one-time codes, passwords or full card details. We will never ask for them.</li>
      </ul>

      <h2>What happens next</h2>
      <ol className="list-decimal space-y-1 pl-6">
        <li>We acknowledge your complaint with a reference number.</li>
        <li>The grievance officer, or someone reporting to them who was not involved, looks into it.</li>
        <li>We give you a written answer within 30 days of receiving the complaint, with our reasons.</li>
      </ol>
      <p>While a complaint about a charge is being looked into, we do not press you for that charge.</p>

      <h2>If you are not satisfied</h2>
      <p>
        If we do not answer within 30 days, or you are not satisfied with our answer, you may complain to the Reserve Bank of India under
        the Reserve Bank – Integrated Ombudsman Scheme, 2021, through its Complaint Management System at{" "}
        <a href="https://cms.rbi.org.in" rel="noopener noreferrer">
          cms.rbi.org.in
        </a>
        , or by calling the RBI's contact centre on 14448.
      </p>

      <h2>Fair practices we hold ourselves to</h2>
      <ul>
        <li>Penal charges are flat charges, disclosed in advance, never compounded and never added to the principal.</li>
        <li>Every reminder and recovery contact is polite, between 8 am and 7 pm, and never with threats or abuse.</li>
        <li>We tell you the name of anyone who contacts you on our behalf about a loan.</li>
      </ul>
    </article>
  );
}
