import { AlertTriangle } from "lucide-react";
import type { ReactNode } from "react";

/** The 'Location Error' banner of docs/product.md section 2: what went wrong, and what to try next. */
export function LocationErrorBanner({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <div role="alert" className="flex gap-3 rounded-card border border-red-200 bg-red-50 p-4 text-red-900">
      <AlertTriangle className="mt-0.5 size-5 shrink-0 text-red-600" aria-hidden="true" />
      <div>
        <h2 className="font-semibold">Location Error</h2>
        <p className="mt-1">{message}</p>
        {children}
      </div>
    </div>
  );
}
