import Menu from "lucide-react/icons/menu";
import { useEffect, useRef, type ReactNode } from "react";
import { useLocation } from "react-router";
import { clsx } from "clsx";

/**
 * The signed-in header's links on a phone, behind one 'Menu' button, so the site name keeps its
 * place beside the logo (a signed-in header has Articles, a console or two and Sign out: more
 * than 390 px hold). A `<details>` disclosure: it opens by keyboard and without JavaScript; with
 * it, Escape, a click elsewhere and a navigation close it.
 */
export function PhoneMenu({
  transparent,
  className,
  children,
}: {
  transparent: boolean;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    ref.current?.removeAttribute("open");
  }, [pathname]);
  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      const details = ref.current;
      if (details?.open && !details.contains(event.target as Node)) details.removeAttribute("open");
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, []);
  return (
    <details
      ref={ref}
      className={clsx("relative", className)}
      onKeyDown={(event) => {
        const details = ref.current;
        if (event.key !== "Escape" || !details?.open) return;
        details.removeAttribute("open");
        details.querySelector("summary")?.focus();
      }}
    >
      <summary
        className={clsx(
          "flex min-h-11 cursor-pointer list-none items-center gap-1.5 rounded-md px-3 font-medium [&::-webkit-details-marker]:hidden",
          transparent ? "text-white hover:bg-white/15" : "text-slate-700 hover:bg-slate-100",
        )}
      >
        <Menu className="size-5" aria-hidden="true" />
        Menu
      </summary>
      <div className="absolute right-0 top-full z-30 mt-2 flex w-56 flex-col gap-1 rounded-card border border-slate-200 bg-white p-2 text-base text-slate-900 shadow-lg">
        {children}
      </div>
    </details>
  );
}

/** The class of a link inside the phone menu: a full-width row, 44 px tall. */
export const PHONE_MENU_ITEM =
  "flex min-h-11 w-full items-center rounded-md px-3 text-left font-medium text-slate-800 hover:bg-slate-100 aria-[current=page]:text-brand-700";
