import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";

/** The look shared by text inputs, text areas and selects; `invalid` turns the border red. */
export function controlClasses(invalid: boolean | undefined, className?: string): string {
  return cn(
    "block w-full rounded-md border bg-white px-3 py-2 text-base text-slate-900 shadow-sm placeholder:text-slate-400",
    "focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-500",
    "disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500",
    invalid ? "border-red-600 focus-visible:border-red-600 focus-visible:outline-red-600" : "border-slate-300",
    className,
  );
}

export type InputProps = ComponentProps<"input"> & { invalid?: boolean };

export function Input({ invalid, className, type = "text", ...props }: InputProps) {
  return (
    <input type={type} aria-invalid={invalid || undefined} className={controlClasses(invalid, className)} {...props} />
  );
}
