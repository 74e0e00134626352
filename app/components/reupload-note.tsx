import { useTranslations } from "../i18n/use-translations.ts";
import { DOCUMENT_KINDS, type DocumentKind } from "../domain/kyc/documents.ts";
import { linkTo, strong } from "../lib/rich-text.tsx";

const KINDS = Object.keys(DOCUMENT_KINDS) as DocumentKind[];
/** The document's kind, given as its kind or as its English name (DOCUMENT_KINDS). */
const kindOf = (document: string): DocumentKind | undefined => KINDS.find((kind) => kind === document || DOCUMENT_KINDS[kind] === document);

/**
 * Where to upload a document a credit officer asked for again, and where the borrower then answers.
 * `document` is the document's kind ("pan_card"), or its English name as staff pages write it; its
 * words are the "profile" namespace's, which the page loads.
 */
export function ReuploadNote({ document, answer }: { document: string; answer: "below" | "dashboard" }) {
  const t = useTranslations("profile");
  const kind = kindOf(document);
  const name = kind ? t(`documents.${kind}`) : document;
  const link = linkTo(kind === "selfie" ? "/User/Profile/components/Selfie" : "/User/Profile/components/Documents", "link");
  return <p>{t.rich(answer === "below" ? "reupload.below" : "reupload.dashboard", { document: name, strong, link })}</p>;
}
