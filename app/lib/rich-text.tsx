// Tags the messages use inside a sentence, for `t.rich`: the sentence keeps its words whole in one
// message ("See our <link>grievance redressal policy</link>."), whatever part of it is bold or a
// link. Made here, once, rather than as functions inside a component's render.
import type { ReactNode } from "react";
import { Link } from "./link.tsx";

type Tag = (chunks: ReactNode) => ReactNode;

/** `<strong>…</strong>` */
export const strong: Tag = (chunks) => <strong>{chunks}</strong>;

/** Words for screen readers only (`<hidden>Step 2: </hidden>`): the sentence stays whole, part of it unseen. */
export const srOnly: Tag = (chunks) => <span className="sr-only">{chunks}</span>;

/** `<code>…</code>`: a name typed as it is (a cookie's). */
export const code: Tag = (chunks) => <code>{chunks}</code>;

/** `<mono>…</mono>`: a code or number in a monospaced font (a loan number, a payment reference). */
export const mono: Tag = (chunks) => <span className="font-mono">{chunks}</span>;

/** A link to a page of this site, with the words between the tags. */
export const linkTo =
  (to: string, className?: string): Tag =>
  (chunks) => (
    <Link to={to} className={className}>
      {chunks}
    </Link>
  );

/** A link to another site (no referrer sent), with the words between the tags. */
export const externalLink =
  (href: string, className?: string): Tag =>
  (chunks) => (
    <a href={href} className={className} rel="noopener noreferrer">
      {chunks}
    </a>
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

/** A figure set apart inside a sentence (`className` "money"), with a test id when given: `<span>…</span>`. */
export const spanOf =
  (className: string, testId?: string): Tag =>
  (chunks) => (
    <span className={className} data-testid={testId}>
      {chunks}
    </span>
  );

/** `<strong>` with a class (a reference set apart: `strongWith("font-mono")`). */
export const strongWith =
  (className: string): Tag =>
  (chunks) => <strong className={className}>{chunks}</strong>;

/** `<span>` with a class (a loan number in monospace: `spanWith("font-mono")`). */
export const spanWith =
  (className: string): Tag =>
  (chunks) => <span className={className}>{chunks}</span>;
