import * as Popover from "@radix-ui/react-popover";
import { useRef, type ReactNode, type RefObject } from "react";

/**
 * The open panel of a `FilterPopover`, in a module of its own so that Radix loads on first use.
 * Anchored to the trigger button, which is outside Radix's tree: a press on that button is not an
 * outside interaction (its own click closes the panel), and closing gives focus back to it unless
 * the visitor moved on by clicking elsewhere, as Radix's own trigger would.
 */
export default function FilterPopoverPanel({
  anchor,
  id,
  label,
  className,
  onOpenChange,
  children,
}: {
  anchor: RefObject<HTMLButtonElement | null>;
  id: string;
  label?: string;
  className: string;
  onOpenChange(open: boolean): void;
  children: ReactNode;
}) {
  const wentElsewhere = useRef(false);
  return (
    <Popover.Root open onOpenChange={onOpenChange}>
      <Popover.Anchor virtualRef={anchor} />
      <Popover.Portal>
        <Popover.Content
          id={id}
          role="dialog"
          aria-label={label}
          align="start"
          sideOffset={6}
          className={className}
          onInteractOutside={(event) => {
            if (event.target instanceof Node && anchor.current?.contains(event.target)) event.preventDefault();
            else wentElsewhere.current = true;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (!wentElsewhere.current) anchor.current?.focus({ preventScroll: true });
          }}
        >
          {children}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
