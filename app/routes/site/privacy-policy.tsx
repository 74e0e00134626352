import { Link } from "react-router";
import { pageMeta } from "../../lib/meta.ts";
import { usePublicConfig } from "../../root.tsx";
import type { Route } from "./+types/privacy-policy";
import { CONSENT_PURPOSES, CONSENT_TEXT } from "../../domain/privacy/consents.ts";
import { ANSWER_WITHIN_DAYS, BREACH_REPORT_HOURS, DATA_ITEMS, RECIPIENT_KINDS, RETENTION_YEARS } from "../../domain/privacy/notice.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Privacy policy", "What we collect, why, with whose consent, and what we never collect.");

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
            {DATA_ITEMS.map(({ id, en }) => (
              <tr key={id} className="border-b border-slate-200 align-top">
                <th scope="row" className="py-2 pr-4 font-medium">
                  {en.what}
                </th>
                <td className="py-2">{en.why}</td>
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
        We ask for your consent separately for each purpose, and record each answer with the time, the IP address and the browser it came
        from. You can see each consent and withdraw it, as easily as you gave it, on the "Your data and privacy" page of your profile.
      </p>
      <ul>
        {CONSENT_PURPOSES.map((purpose) => (
          <li key={purpose}>
            <strong>{CONSENT_TEXT[purpose].title}.</strong> {CONSENT_TEXT[purpose].allows} If you withdraw it:{" "}
            {CONSENT_TEXT[purpose].withdrawEffect}
          </li>
        ))}
      </ul>

      <h2>Who we share it with</h2>
      <p>Only what each needs, under contract, and never for marketing:</p>
      <ul>
        {Object.entries(RECIPIENT_KINDS).map(([kind, label]) => (
          <li key={kind}>{label}</li>
        ))}
      </ul>
      <p>
        We report every loan to the four credit bureaus twice a month, as the law requires; we ask a bureau about you only with your
        consent. We also give data to regulators, courts and law enforcement when the law requires it. We never sell your data. Your
        download of your data lists which of these had yours.
      </p>

      <h2>Where and how long we keep it</h2>
      <ul>
        <li>Your data is stored on servers in India.</li>
        <li>PAN and bank account numbers are encrypted; documents are kept outside the website and shown only to you and our staff.</li>
        <li>
          KYC records are kept for {RETENTION_YEARS.kyc} years after the relationship ends, as the Prevention of Money Laundering Act, 2002
          and the RBI's KYC directions require; loan and accounting records for {RETENTION_YEARS.loan} years after a loan ends. If you ask
          us to erase your data, we erase everything else within 30 days of your asking, tell you what we keep and until when, and erase it
          the day after.
        </li>
      </ul>

      <h2>If your data is breached</h2>
      <p>
        If a breach of security affects your personal data, we tell you and the Data Protection Board of India within {BREACH_REPORT_HOURS}{" "}
        hours of finding it: what happened, what it may mean for you, what we are doing and what you can do.
      </p>

      <h2>Cookies and storage on your device</h2>
      <p>
        We use a session cookie named <code>token</code> to keep you signed in, a short-lived cookie to show you messages after a form, and
        a random device identifier in your browser's storage. We use no advertising trackers. You can clear all of them from the{" "}
        <Link to="/ClearCache">clear this site's data</Link> page.
      </p>

      <h2>Your rights</h2>
      <p>From the "Your data and privacy" page of your profile you can, at any time:</p>
      <ul>
        <li>download everything we hold about you, as a PDF to read and as a JSON file, with the list of those we shared it with;</li>
        <li>correct your details in your profile, or ask us to correct what you cannot change there;</li>
        <li>ask us to erase your data: the page shows what we would erase and what the law makes us keep, why and until when;</li>
        <li>name a nominee to use these rights if you die or cannot use them yourself;</li>
        <li>withdraw or give again each consent.</li>
      </ul>
      <p>
        We answer each request within {ANSWER_WITHIN_DAYS} days. To complain, write to our grievance officer, {officer?.name}, at{" "}
        <a href={`mailto:${officer?.email}`}>{officer?.email}</a> or call{" "}
        <a href={`tel:${officer?.phone.replace(/\s/g, "")}`}>{officer?.phone}</a>. See also our{" "}
        <Link to="/grievance-policy">grievance redressal policy</Link>. If we do not answer you, or you are not satisfied, you may complain
        to the Data Protection Board of India.
      </p>
    </article>
  );
}
