import type { ComponentProps } from "react";
import { clsx } from "clsx";
import { controlClasses } from "./input";

export type SelectProps = ComponentProps<"select"> & { invalid?: boolean };

/** A native select: the phone's own picker, keyboard and screen-reader support for free. */
export function Select({ invalid, className, ...props }: SelectProps) {
  return <select aria-invalid={invalid || undefined} className={controlClasses(clsx("pr-8", className))} {...props} />;
}
