import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/**
 * Joins class names and lets the later Tailwind class win a conflict, so a caller's
 * `className="px-6"` overrides a primitive's `px-4` instead of both landing in the markup.
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
