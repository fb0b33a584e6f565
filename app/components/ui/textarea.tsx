import type { ComponentProps } from "react";
import { controlClasses } from "./input";

export type TextareaProps = ComponentProps<"textarea"> & { invalid?: boolean };

export function Textarea({ invalid, className, rows = 4, ...props }: TextareaProps) {
  return <textarea rows={rows} aria-invalid={invalid || undefined} className={controlClasses(className)} {...props} />;
}
