import AlertTriangle from "lucide-react/icons/triangle-exclamation-point";
import SearchX from "lucide-react/icons/search-x";
import type { ReactNode } from "react";

/**
 * The 'Location Error' banner of docs/product.md section 2: what went wrong, and what to try next.
 * `tone="notice"` (amber) is for a place we did not recognise, where the page offers close
 * matches: a typo is not a failure, and red is kept for real errors.
 */
export function LocationErrorBanner({
  message,
  children,
  tone = "error",
  headingLevel = 2,
}: {
  message: string;
  children?: ReactNode;
  tone?: "error" | "notice";
  /** 1 when the banner is what the page is about (a results page without results). */
  headingLevel?: 1 | 2;
}) {
  const Heading = headingLevel === 1 ? "h1" : "h2";
  const notice = tone === "notice";
  const Icon = notice ? SearchX : AlertTriangle;
  return (
    <div
      role="alert"
      className={`flex gap-3 rounded-card border p-4 ${
        notice ? "border-amber-200 bg-amber-50 text-slate-900" : "border-red-200 bg-red-50 text-red-900"
      }`}
    >
      <Icon className={`mt-0.5 size-5 shrink-0 ${notice ? "text-amber-700" : "text-red-600"}`} aria-hidden="true" />
      <div className="min-w-0">
        <Heading className="font-semibold">Location Error</Heading>
        <p className="mt-1 break-words">{message}</p>
        {children}
      </div>
    </div>
  );
}
