import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ReactNode } from "react";
import type { ImageRef } from "../../lib/images";
import { ResponsivePhoto } from "./responsive-photo";

/**
 * The gallery's full-screen view. Its own module, loaded only when a visitor asks for it, so the
 * dialog library stays out of the facility page's first download.
 */
export default function PhotoFullScreen({
  photo,
  label,
  arrows,
  onClose,
}: {
  photo: ImageRef;
  label: string;
  arrows: ReactNode;
  onClose: () => void;
}) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/95" />
        {/* No key handler here: React events bubble from the portal to the gallery's own. */}
        <Dialog.Content className="fixed inset-0 z-50 flex items-center justify-center p-4">
          <Dialog.Title className="sr-only">{label}</Dialog.Title>
          <Dialog.Description className="sr-only">
            Use the left and right arrow keys to change photo.
          </Dialog.Description>
          <div className="relative w-full max-w-6xl">
            <ResponsivePhoto
              key={`full-${photo.placeId}-${photo.index}`}
              placeId={photo.placeId}
              index={photo.index}
              alt={label}
              width={1280}
              height={960}
              sizes="100vw"
              className="max-h-[85dvh] object-contain"
            />
            {arrows}
          </div>
          <Dialog.Close
            aria-label="Close"
            className="absolute right-4 top-4 rounded-full bg-white/90 p-2 text-slate-900"
          >
            <X className="size-5" aria-hidden="true" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
