import { Link } from "react-router";
import { pageMeta } from "../../lib/meta.ts";
import { usePublicConfig } from "../../root.tsx";
import type { Route } from "./+types/privacy-policy";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Privacy policy", "What we collect, why, with whose consent, and what we never collect.");

const COLLECTED: Array<[string, string]> = [
  ["Mobile number", "to create your account, sign you in with one-time codes and send you loan messages"],
  ["Name, date of birth, gender, marital status, e-mail", "to identify you and check eligibility (age 21 to 60)"],
  ["PAN", "for KYC and to prevent duplicate accounts; stored encrypted"],
  ["Aadhaar number", "checked when you enter it; only its last 4 digits are stored"],
  ["Address and PIN code", "for KYC and communication"],
  ["Employment, income and existing EMIs", "to work out what you can afford and your interest rate"],
  ["Bank account and IFSC", "to verify the account in your name and pay your loan into it; the account number is stored encrypted"],
  ["Documents and a selfie", "for KYC and to confirm that the applicant is you"],
  ["References", "two people we may contact only if we cannot reach you about your loan"],
  ["A random device identifier", "so that only one device at a time is signed in to your account"],
  ["Technical logs (IP address, browser, time)", "for security, fraud prevention and to record your consents"],
];

export default function PrivacyPolicy() {
  const config = usePublicConfig();
  const officer = config?.lender.grievanceOfficer;
  return (
    <article className="prose-page px-4 py-10">
      <h1>Privacy policy</h1>
      <p>
        This policy explains how {config?.lender.name} ("we"), through {config?.brandName}, collects and uses your personal data, under the
        Digital Personal Data Protection Act, 2023 and the Reserve Bank of India's directions on digital lending.
      </p>

      <h2>What we collect and why</h2>
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="What we collect and why (scrolls sideways)">
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">Personal data we collect and the purpose of each</caption>
          <thead>
            <tr className="border-b border-slate-300">
              <th scope="col" className="py-2 pr-4">
                Data
              </th>
              <th scope="col" className="py-2">
                Why we need it
              </th>
            </tr>
          </thead>
          <tbody>
            {COLLECTED.map(([what, why]) => (
              <tr key={what} className="border-b border-slate-200 align-top">
                <th scope="row" className="py-2 pr-4 font-medium">
                  {what}
                </th>
                <td className="py-2">{why}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>What we never collect</h2>
      <p>
        We never ask for or read your contacts, call logs, messages, photos or files, or your location. We only see the documents and the
        selfie that you choose to upload.
      </p>

      <h2>Your consent</h2>
      <p>
        We ask for your consent separately for each purpose: KYC checks, and communications about your account and loans. Each consent is
        recorded with the time and the IP address it was given from. You may withdraw a consent at any time by writing to the grievance
        officer; withdrawing KYC consent means we cannot give you a new loan, but it does not cancel a loan you already have.
      </p>

      <h2>Where and how long we keep it</h2>
      <ul>
        <li>Your data is stored on servers in India.</li>
        <li>PAN and bank account numbers are encrypted; documents are kept outside the website and shown only to you and our staff.</li>
        <li>
          We keep KYC and loan records for as long as the RBI's Master Direction on KYC and the Prevention of Money Laundering Act, 2002
          require, and delete or anonymise what they do not require.
        </li>
      </ul>

      <h2>Who we share it with</h2>
      <ul>
        <li>Credit information companies (credit bureaus), only with your consent and when that service is in use.</li>
        <li>Regulators, courts and law enforcement, when the law requires it.</li>
        <li>Service providers that work for us under contract (for example, to send SMS), only the data they need.</li>
      </ul>
      <p>We never sell your data.</p>

      <h2>Cookies and storage on your device</h2>
      <p>
        We use a session cookie named <code>token</code> to keep you signed in, a short-lived cookie to show you messages after a form, and
        a random device identifier in your browser's storage. We use no advertising trackers. You can clear all of them from the{" "}
        <Link to="/ClearCache">clear this site's data</Link> page.
      </p>

      <h2>Your rights</h2>
      <p>
        You may ask to see the personal data we hold about you, to correct it, to withdraw consent, and to complain. Write to our grievance
        officer, {officer?.name}, at <a href={`mailto:${officer?.email}`}>{officer?.email}</a> or call{" "}
        <a href={`tel:${officer?.phone.replace(/\s/g, "")}`}>{officer?.phone}</a>. See also our{" "}
        <Link to="/grievance-policy">grievance redressal policy</Link>.
      </p>
    </article>
  );
}
