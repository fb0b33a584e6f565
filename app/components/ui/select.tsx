import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";
import { controlClasses } from "./input";

export type SelectProps = ComponentProps<"select"> & { invalid?: boolean };

/** A native select: the phone's own picker, keyboard and screen-reader support for free. */
export function Select({ invalid, className, ...props }: SelectProps) {
  return (
    <select aria-invalid={invalid || undefined} className={controlClasses(invalid, cn("pr-8", className))} {...props} />
  );
}
