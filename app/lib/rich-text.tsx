// Tags the messages use inside a sentence, for `t.rich`: the sentence keeps its words whole in one
// message ("See our <link>grievance redressal policy</link>."), whatever part of it is bold or a
// link. Made here, once, rather than as functions inside a component's render.
import type { ReactNode } from "react";
import { Link } from "react-router";

type Tag = (chunks: ReactNode) => ReactNode;

/** `<strong>…</strong>` */
export const strong: Tag = (chunks) => <strong>{chunks}</strong>;

/** A link to a page of this site, with the words between the tags. */
export const linkTo =
  (to: string, className?: string): Tag =>
  (chunks) => (
    <Link to={to} className={className}>
      {chunks}
    </Link>
  );

/** A telephone link (digits and "+" only in the address). */
export const telLink =
  (phone: string, className = "link"): Tag =>
  (chunks) => (
    <a className={className} href={`tel:${phone.replace(/[^\d+]/g, "")}`}>
      {chunks}
    </a>
  );

/** An e-mail link. */
export const mailLink =
  (email: string, className = "link break-all"): Tag =>
  (chunks) => (
    <a className={className} href={`mailto:${email}`}>
      {chunks}
    </a>
  );

/** `<strong>` with a class (a reference set apart: `strongWith("font-mono")`). */
export const strongWith =
  (className: string): Tag =>
  (chunks) => <strong className={className}>{chunks}</strong>;

/** `<span>` with a class (a loan number in monospace: `spanWith("font-mono")`). */
export const spanWith =
  (className: string): Tag =>
  (chunks) => <span className={className}>{chunks}</span>;

/** Words read out to a screen reader but not shown ("Step 2: " before a step's title). */
export const srOnly: Tag = (chunks) => <span className="sr-only">{chunks}</span>;
