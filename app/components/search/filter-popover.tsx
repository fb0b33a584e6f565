import { lazy, Suspense, useId, useRef, type ReactNode, type RefObject } from "react";

/**
 * A filter bar dropdown whose popover library loads on first use (docs/operations.md, page
 * budgets): the trigger is a plain button in the page's HTML; Radix's popover (with its
 * positioning library, the largest part of the results page's filters) is fetched when the
 * pointer comes near the button or it gets focus, and rendered only while open. The panel
 * (`filter-popover-panel.tsx`) anchors to the button, traps nothing, closes on Escape or a click
 * outside and gives focus back to the button.
 */
const Panel = lazy(() => import("./filter-popover-panel"));
const loadPanel = () => void import("./filter-popover-panel").catch(() => {});

export function FilterPopover({
  open,
  onOpenChange,
  triggerClassName,
  trigger,
  contentClassName,
  contentLabel,
  children,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  triggerClassName: string;
  /** The button's content (its accessible name). */
  trigger: ReactNode;
  contentClassName: string;
  /** The panel's accessible name, when it has no heading or legend of its own. */
  contentLabel?: string;
  children: ReactNode;
}) {
  const anchor = useRef<HTMLButtonElement>(null);
  const contentId = useId();
  return (
    <>
      <FilterButton
        ref={anchor}
        className={triggerClassName}
        open={open}
        controls={open ? contentId : undefined}
        onWarm={loadPanel}
        onClick={() => onOpenChange(!open)}
      >
        {trigger}
      </FilterButton>
      {open && (
        <Suspense fallback={null}>
          <Panel
            anchor={anchor}
            id={contentId}
            label={contentLabel}
            className={contentClassName}
            onOpenChange={onOpenChange}
          >
            {children}
          </Panel>
        </Suspense>
      )}
    </>
  );
}

/**
 * A filter bar button whose panel loads on first use: it says whether its panel is open, and
 * starts loading the panel's code (`onWarm`) when the pointer comes near or it gets focus.
 */
export function FilterButton({
  ref,
  className,
  open,
  controls,
  onWarm,
  onClick,
  children,
}: {
  ref: RefObject<HTMLButtonElement | null>;
  className: string;
  open: boolean;
  /** The open panel's id. */
  controls?: string;
  onWarm(): void;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <button
      ref={ref}
      type="button"
      className={className}
      aria-haspopup="dialog"
      aria-expanded={open}
      aria-controls={controls}
      data-state={open ? "open" : "closed"}
      onPointerEnter={onWarm}
      onFocus={onWarm}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
