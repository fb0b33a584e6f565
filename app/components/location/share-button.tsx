import Share2 from "lucide-react/icons/share-2";
import { useEffect, useState } from "react";

const SAID_MS = 6_000;

/**
 * 'Share' (docs/product.md section 2, "Detail screen"): the system's share sheet where the browser
 * has one (the Web Share API: phones, Safari, Chrome on Windows and macOS), else the page's address
 * copied to the clipboard. What happened is said in a live region that is always in the page, so
 * screen readers read "Link copied." when it appears.
 */
export function ShareButton({ title, className }: { title: string; className?: string }) {
  const [said, setSaid] = useState("");
  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(""), SAID_MS);
    return () => clearTimeout(timer);
  }, [said]);

  async function share() {
    // The facility's own address: no filters, no #ask.
    const url = `${window.location.origin}${window.location.pathname}`;
    setSaid("");
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        // Closed by the visitor: nothing to say. Refused (no permission, a frame): copy instead.
        if ((error as Error).name === "AbortError") return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setSaid("Link copied.");
    } catch {
      setSaid(`Copy this address to share it: ${url}`);
    }
  }

  return (
    <div className={`relative ${className ?? ""}`}>
      <button
        type="button"
        onClick={() => void share()}
        className="inline-flex min-h-11 items-center gap-2 rounded-md border border-slate-300 bg-white px-3 font-medium text-slate-800 hover:border-brand-500"
      >
        <Share2 className="size-5" aria-hidden="true" /> Share
      </button>
      <p role="status" className="absolute left-0 top-full z-20 mt-1 w-max max-w-72 text-sm text-slate-700">
        {said}
      </p>
    </div>
  );
}
