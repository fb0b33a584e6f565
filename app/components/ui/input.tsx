import type { ComponentProps } from "react";
import { clsx } from "clsx";

/**
 * The look shared by text inputs, text areas and selects (`.control` in app.css, red when
 * `aria-invalid`); a caller's utility classes override it.
 */
export function controlClasses(className?: string): string {
  return clsx("control", className);
}

export type InputProps = ComponentProps<"input"> & { invalid?: boolean };

export function Input({ invalid, className, type = "text", ...props }: InputProps) {
  return <input type={type} aria-invalid={invalid || undefined} className={controlClasses(className)} {...props} />;
}
