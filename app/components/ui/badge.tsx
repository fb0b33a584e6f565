import { clsx } from "clsx";
import type { ComponentProps } from "react";

export type BadgeTone = "neutral" | "info" | "success" | "warning" | "danger" | "brand";

/**
 * A short status word ("Pending", "Paid"), pill-shaped like the tier and demo badges. The tones
 * are `.badge-*` in app.css's components layer, so a caller's classes override them.
 */
export function Badge({ tone = "neutral", className, ...props }: ComponentProps<"span"> & { tone?: BadgeTone }) {
  return <span className={clsx("badge", `badge-${tone}`, className)} {...props} />;
}
