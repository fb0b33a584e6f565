import * as DialogPrimitive from "@radix-ui/react-dialog";
import X from "lucide-react/icons/x";
import { useState, type ReactNode } from "react";
import { cn } from "../../lib/cn";
import { Button } from "./button";

export interface DialogProps {
  /** The element that opens the dialog (rendered as-is: pass a `<Button>`). */
  trigger?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Buttons along the bottom, right-aligned (stacked full width on phones). */
  footer?: ReactNode;
  className?: string;
  children?: ReactNode;
}

/**
 * A modal dialog on Radix: focus moves in and stays in, Escape and the close button close it,
 * focus returns to the trigger. A bottom sheet on phones, centred from `sm` up.
 */
export function Dialog({ trigger, title, description, open, onOpenChange, footer, className, children }: DialogProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <DialogPrimitive.Trigger asChild>{trigger}</DialogPrimitive.Trigger>}
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <DialogPrimitive.Content
          className={cn(
            "fixed inset-x-0 bottom-0 z-50 max-h-[90dvh] overflow-auto rounded-t-lg bg-white p-4 shadow-xl",
            "sm:inset-auto sm:left-1/2 sm:top-1/2 sm:w-[32rem] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-lg sm:p-6",
            className,
          )}
          // Without a description Radix warns unless told there is none.
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <div className="flex items-start justify-between gap-4">
            <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">{title}</DialogPrimitive.Title>
            <DialogPrimitive.Close
              className="rounded-md p-1 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-500"
              aria-label="Close"
            >
              <X className="size-5" aria-hidden="true" />
            </DialogPrimitive.Close>
          </div>
          {description && (
            <DialogPrimitive.Description className="mt-1 text-sm text-slate-600">
              {description}
            </DialogPrimitive.Description>
          )}
          {children && <div className="mt-4">{children}</div>}
          {footer && <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{footer}</div>}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

export interface ConfirmDialogProps {
  trigger: ReactNode;
  title: ReactNode;
  text: ReactNode;
  confirmLabel: ReactNode;
  cancelLabel?: ReactNode;
  tone?: "primary" | "danger";
  /**
   * The id of the `<Form>` the confirm button submits: confirming is then a real form post (the
   * button's `name`/`value` travel with it, so one form can carry several intents).
   */
  form?: string;
  name?: string;
  value?: string;
  /** For a confirmation that is not a form post. */
  onConfirm?: () => void;
}

/**
 * "Are you sure?" before a consequential action. With `form`, the confirm button is that form's
 * submit button (HTML's `form` attribute), so the action runs through the route's action like any
 * other post. Opening the dialog needs JavaScript; a page that must work without it keeps a plain
 * submit button and asks again on the server.
 */
export function ConfirmDialog({
  trigger,
  title,
  text,
  confirmLabel,
  cancelLabel = "Cancel",
  tone = "primary",
  form,
  name,
  value,
  onConfirm,
}: ConfirmDialogProps) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      trigger={trigger}
      title={title}
      description={text}
      footer={
        <>
          <DialogPrimitive.Close asChild>
            <Button variant="secondary">{cancelLabel}</Button>
          </DialogPrimitive.Close>
          <Button
            variant={tone === "danger" ? "danger" : "primary"}
            type={form ? "submit" : "button"}
            form={form}
            name={name}
            value={value}
            onClick={() => {
              onConfirm?.();
              // Close after the click's default action (the form's submission) has run.
              setTimeout(() => setOpen(false));
            }}
          >
            {confirmLabel}
          </Button>
        </>
      }
    />
  );
}
