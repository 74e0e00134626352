// Tags the messages use inside a sentence, for `t.rich`: the sentence keeps its words whole in one
// message ("See our <link>grievance redressal policy</link>."), whatever part of it is bold or a
// link. Made here, once, rather than as functions inside a component's render.
import type { ReactNode } from "react";
import { Link } from "react-router";

type Tag = (chunks: ReactNode) => ReactNode;

/** `<strong>…</strong>` */
export const strong: Tag = (chunks) => <strong>{chunks}</strong>;

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
