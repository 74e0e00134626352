/** A short message shown at the top of the next page (a flash toast carried across a redirect). */
export interface Toast {
  id: string;
  type: "success" | "error" | "info";
  title: string;
  description?: string;
}
