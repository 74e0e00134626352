import { ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { LenderNote } from "./lender-trust.tsx";

/** How the borrower's KYC data is kept, in a few lines: on every page that asks for it. */
export function DataProtection() {
  return (
    <aside aria-labelledby="data-protection-title" className="rounded-2xl border border-slate-200 bg-white p-4 text-sm text-slate-700">
      <h2 id="data-protection-title" className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <ShieldCheck aria-hidden="true" className="size-5 text-money-600" />
        How we protect your data
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>
          Your PAN, bank account and documents are encrypted where they are stored; your Aadhaar number is checked and never kept (only its
          last 4 digits).
        </li>
        <li>Only our staff who handle your application can open your documents, and every look is recorded.</li>
        <li>
          We use them for your loan and as the law requires (reporting your loans to the credit bureaus and your KYC to the central KYC
          registry), never for marketing. See and withdraw your consents, or download your data, from your profile's privacy page.
        </li>
        <li>We never ask for your contacts, photos, call logs or location.</li>
      </ul>
    </aside>
  );
}

/** The frame of a KYC section page: breadcrumb, one heading, a line about why we ask; how the data is kept and whom to complain to. */
export function KycSection({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-2xl">
      <p className="text-sm">
        <Link className="link" to="/User/Dashboard">
          Dashboard
        </Link>{" "}
        ›{" "}
        <Link className="link" to="/User/Profile">
          KYC profile
        </Link>{" "}
        › {title}
      </p>
      <h1 className="mt-2 text-2xl sm:text-3xl">{title}</h1>
      <p className="mt-2 text-slate-700">{intro}</p>
      {children}
      <div className="mt-8 space-y-3">
        <DataProtection />
        <LenderNote />
      </div>
    </div>
  );
}
