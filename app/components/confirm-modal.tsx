import * as AlertDialog from "@radix-ui/react-alert-dialog";
import type { ConfirmOptions } from "./confirm-dialog.tsx";

/** The question of `useConfirm()`, open while it is shown: an accessible modal that answers once. */
export default function ConfirmModal({ options, onAnswer }: { options: ConfirmOptions; onAnswer: (answer: boolean) => void }) {
  return (
    <AlertDialog.Root open onOpenChange={(open) => (open ? undefined : onAnswer(false))}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
          <AlertDialog.Title className="text-lg font-semibold">{options.title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-slate-700">
            {options.description ?? "Please confirm to continue."}
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className="btn-secondary" onClick={() => onAnswer(false)}>
              {options.cancelLabel ?? "Cancel"}
            </AlertDialog.Cancel>
            <AlertDialog.Action className={options.danger ? "btn-danger" : "btn-primary"} onClick={() => onAnswer(true)}>
              {options.confirmLabel ?? "Confirm"}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
