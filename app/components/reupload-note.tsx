import { Link } from "react-router";

/** Where to upload a document a credit officer asked for again, and where the borrower then answers. */
export function ReuploadNote({ document, answer }: { document: string; answer: "below" | "dashboard" }) {
  const profile = (
    <Link className="link" to={document === "Selfie" ? "/User/Profile/components/Selfie" : "/User/Profile/components/Documents"}>
      your profile
    </Link>
  );
  return answer === "below" ? (
    <p>
      Please upload your <strong>{document}</strong> again in {profile}, then tell us below.
    </p>
  ) : (
    <p>
      Please upload your <strong>{document}</strong> again in {profile}, then tell us on your dashboard.
    </p>
  );
}
