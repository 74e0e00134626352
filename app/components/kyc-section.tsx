import type { ReactNode } from "react";
import { Link } from "react-router";

/** The frame of a KYC section page: breadcrumb, one heading, a line about why we ask. */
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
    </div>
  );
}
