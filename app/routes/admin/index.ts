import { redirect } from "react-router";

/** The staff home: for now the one section every role has, borrowers online. */
export function loader() {
  return redirect("/admin/presence");
}
