import { data, Form, useSubmit } from "react-router";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { FileDrop } from "../../../components/file-drop.tsx";
import { useConfirm } from "../../../components/confirm-dialog.tsx";
import { KycSection } from "../../../components/kyc-section.tsx";
import { servicesContext } from "../../../context.ts";
import { bankStatementMonths, DOCUMENT_TYPES, type DocumentKind, MAX_DOCUMENT_BYTES } from "../../../domain/kyc/documents.ts";
import { formatDateIST } from "../../../domain/india-date.ts";
import { msg } from "../../../i18n/form-message.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { pageMessages, translatorFor } from "../../../web/i18n.server.ts";
import { deleteDocument, listDocuments, storeUpload, requiredDocumentKinds } from "../../../server/kyc/documents.server.ts";
import { receiveUpload } from "../../../web/uploads.server.ts";
import type { Route } from "./+types/documents-section";
import { readForm } from "../../../web/forms.server.ts";

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const [{ employmentType: type, kinds }, docs] = await Promise.all([
    requiredDocumentKinds(services, user.id),
    listDocuments(services, user.id),
  ]);
  return {
    employmentType: type,
    /** How many months of bank statement the borrower's work asks for. */
    statementMonths: bankStatementMonths(type),
    items: kinds.map((kind) => {
      const doc = docs.find((d) => d.kind === kind);
      return {
        kind,
        doc: doc
          ? {
              id: doc.id,
              name: doc.originalName,
              sizeKb: Math.ceil(doc.sizeBytes / 1024),
              type: doc.contentType,
              at: doc.uploadedAt.toISOString(),
            }
          : null,
      };
    }),
    messages: pageMessages(context, ["profile", "profileSections"]),
    meta: { title: translatorFor(context, "profileSections")("documents.title") },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const t = translatorFor(context, "profileSections");
  const back = "/User/Profile/components/Documents";
  if (!(request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) {
    const form = await readForm(request);
    if (form.get("intent") === "delete" && (await deleteDocument(services, { userId: user.id, id: String(form.get("id") ?? "") }))) {
      return redirectWithToast(services.config, request, back, { type: "success", title: t("documents.deleted") });
    }
    throw data({ message: "No such document." }, { status: 404 });
  }
  const { fields, file } = await receiveUpload(services, request, MAX_DOCUMENT_BYTES);
  const { kinds } = await requiredDocumentKinds(services, user.id);
  const kind = kinds.find((k) => k === fields.kind);
  if (!kind) {
    if (file) await services.storage.remove(file.key);
    return data({ kind: null, error: msg("profileSections.documents.chooseKind") }, { status: 400 });
  }
  const stored = await storeUpload(services, {
    userId: user.id,
    kind,
    file,
    rules: { maxBytes: MAX_DOCUMENT_BYTES, allowed: DOCUMENT_TYPES },
  });
  if (!stored.ok) return data({ kind, error: stored.message }, { status: 400 });
  const document = translatorFor(context, "profile")(`documents.${kind}`);
  return redirectWithToast(services.config, request, back, { type: "success", title: t("documents.uploaded", { document }) });
}

export default function DocumentsSection({ loaderData, actionData }: Route.ComponentProps) {
  const confirm = useConfirm();
  const submit = useSubmit();
  const t = useTranslations("profileSections");
  const names = useTranslations("profile");
  const language = useLocale();
  const label = (kind: DocumentKind) =>
    kind === "bank_statement" ? t("documents.bankStatement", { months: String(loaderData.statementMonths) }) : names(`documents.${kind}`);
  return (
    <KycSection title={t("documents.title")} intro={t("documents.intro")}>
      {loaderData.employmentType === null ? <p className="card mt-6 border-amber-300 bg-amber-50">{t("documents.workFirst")}</p> : null}
      <ul className="mt-6 space-y-4">
        {loaderData.items.map((item) => {
          const document = label(item.kind);
          return (
            <li
              key={item.kind}
              id={`doc-${item.kind}`}
              className="card scroll-mt-4 space-y-3 target:border-brand-600"
              data-testid={`doc-${item.kind}`}
            >
              <h2 className="text-lg">{document}</h2>
              {item.doc ? (
                <div className="flex flex-wrap items-center gap-3 text-sm">
                  <span>
                    {t("documents.uploadedFile", {
                      date: formatDateIST(new Date(item.doc.at), language),
                      name: item.doc.name,
                      size: String(item.doc.sizeKb),
                    })}
                  </span>
                  <a className="link" href={`/User/Profile/documents/${item.doc.id}`} target="_blank" rel="noopener">
                    {t("documents.view")}
                  </a>
                  <Form
                    method="post"
                    onSubmit={async (event) => {
                      event.preventDefault();
                      const formEl = event.currentTarget;
                      if (
                        await confirm({
                          title: t("documents.deleteTitle", { document }),
                          description: t("documents.deleteBody"),
                          confirmLabel: t("documents.delete"),
                          cancelLabel: t("documents.cancel"),
                          danger: true,
                        })
                      ) {
                        void submit(formEl);
                      }
                    }}
                  >
                    <input type="hidden" name="intent" value="delete" />
                    <input type="hidden" name="id" value={item.doc.id} />
                    <button type="submit" className="link text-danger-600">
                      {t("documents.delete")}
                    </button>
                  </Form>
                </div>
              ) : (
                <p className="text-sm text-slate-600">{t("documents.notUploaded")}</p>
              )}
              <FileDrop
                kind={item.kind}
                label={item.doc ? t("documents.replace", { document }) : t("documents.upload", { document })}
                allowed={DOCUMENT_TYPES}
                maxBytes={MAX_DOCUMENT_BYTES}
                error={actionData?.kind === item.kind ? actionData.error : null}
              />
            </li>
          );
        })}
      </ul>
    </KycSection>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
