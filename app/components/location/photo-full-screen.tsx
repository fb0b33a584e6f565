import * as Dialog from "@radix-ui/react-dialog";
import X from "lucide-react/icons/x";
import type { ReactNode } from "react";
import type { ImageRef } from "../../../domain/images";
import { ResponsivePhoto } from "./responsive-photo";
import { stepOnArrowKey, useSwipe } from "./use-swipe";

/**
 * The gallery's full-screen view: the whole photo fitted to the screen (never cropped), a
 * 'n / total' counter, the arrows, swipes, and the left/right keys, handled here and stopped:
 * React bubbles a portal's events along the component tree, so the gallery's own arrow-key
 * handler would page a second time. Escape or Close ends it and focus goes back to what opened
 * it. Its own module, loaded only when a visitor asks for it, so the dialog library stays out of
 * the facility page's first download.
 */
export default function PhotoFullScreen({
  photo,
  label,
  position,
  arrows,
  onStep,
  onClose,
  returnFocusTo,
}: {
  photo: ImageRef;
  label: string;
  /** The counter, e.g. '3 / 12'. */
  position: string;
  arrows: ReactNode;
  onStep(delta: number): void;
  onClose(): void;
  /** The element to focus once closed (the dialog was opened without a Radix trigger). */
  returnFocusTo(): HTMLElement | null;
}) {
  const swipe = useSwipe(onStep);
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950" />
        <Dialog.Content
          className="fixed inset-0 z-50"
          onKeyDown={(event) => {
            if (stepOnArrowKey(event, onStep)) event.stopPropagation();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo()?.focus({ preventScroll: true });
          }}
        >
          <Dialog.Title className="sr-only">{label}</Dialog.Title>
          <Dialog.Description className="sr-only">
            Use the left and right arrow keys, or swipe, to change photo.
          </Dialog.Description>
          {/* The photo's box: the whole screen but the bar on top; the photo fits inside it. */}
          <div {...swipe} className="absolute inset-x-2 bottom-2 top-16 touch-pan-y select-none sm:inset-x-16">
            <ResponsivePhoto
              key={`full-${photo.placeId}-${photo.index}`}
              placeId={photo.placeId}
              index={photo.index}
              alt={label}
              width={1280}
              height={960}
              sizes="100vw"
              fit="contain"
            />
          </div>
          {arrows}
          <p
            aria-live="polite"
            className="absolute left-4 top-4 rounded bg-white/90 px-3 py-1.5 text-sm font-medium tabular-nums text-slate-900"
            data-testid="full-screen-counter"
          >
            {position}
          </p>
          <Dialog.Close
            aria-label="Close"
            className="absolute right-4 top-3 flex size-11 items-center justify-center rounded-full bg-white/90 text-slate-900"
          >
            <X className="size-5" aria-hidden="true" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
