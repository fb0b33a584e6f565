import Heart from "lucide-react/icons/heart";
import { useState, type FormEvent } from "react";
import { useLocation } from "react-router";
import { ensureAnonymousSession } from "../../lib/auth-client";
import { SAVED_MESSAGES } from "../../../domain/saved";
import { markSaved, useIsSaved, useSavedBase } from "../../lib/saved-store";

const MESSAGE_MS = 6_000;

/**
 * Save or forget a facility (docs/product.md section 15): a toggle button (`aria-pressed`) named
 * 'Save {name}'. A visitor who is not signed in saves under their anonymous session, which
 * signing up or in carries over. It is a real form, so it works without JavaScript (the server
 * then answers with a redirect back); with JavaScript it posts in the background and changes at
 * once, undoing the change when the server refuses it.
 */
export function SaveButton({
  slug,
  name,
  withText = false,
  className,
}: {
  slug: string;
  name: string;
  /** The facility page shows 'Save' beside the heart; cards show the heart alone. */
  withText?: boolean;
  className?: string;
}) {
  const saved = useIsSaved(slug);
  const base = useSavedBase();
  const { pathname, search } = useLocation();
  const [message, setMessage] = useState("");

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = !saved;
    markSaved(base, slug, next);
    setMessage("");
    const fail = (text: string) => {
      markSaved(base, slug, !next);
      setMessage(text);
      setTimeout(() => setMessage(""), MESSAGE_MS);
    };
    if (!(await ensureAnonymousSession())) return fail(SAVED_MESSAGES.noSession);
    try {
      const response = await fetch("/api/saved", {
        method: "POST",
        body: new URLSearchParams({ slug, saved: String(next) }),
        headers: { Accept: "application/json" },
        credentials: "same-origin",
        // A visitor who saves and leaves at once still has it saved.
        keepalive: true,
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { error?: string };
        return fail(body.error ?? SAVED_MESSAGES.failed);
      }
    } catch {
      fail(SAVED_MESSAGES.failed);
    }
  }

  return (
    <form method="post" action="/api/saved" onSubmit={submit} className={className}>
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="saved" value={String(!saved)} />
      <input type="hidden" name="redirectTo" value={pathname + search} />
      <button
        type="submit"
        aria-pressed={saved}
        aria-label={`Save ${name}`}
        title={saved ? "Saved: click to remove" : "Save to compare later"}
        className={
          withText
            ? "inline-flex min-h-11 items-center gap-2 rounded-md border border-slate-300 bg-white px-3 font-medium text-slate-800 hover:border-brand-500 aria-pressed:border-brand-500 aria-pressed:bg-brand-50 aria-pressed:text-brand-700"
            : "flex size-11 items-center justify-center rounded-full bg-white/95 text-slate-700 shadow-sm ring-1 ring-slate-200 hover:text-brand-700 aria-pressed:text-brand-600"
        }
      >
        <Heart className={`size-5 ${saved ? "fill-current" : ""}`} aria-hidden="true" />
        {withText && <span>Save</span>}
      </button>
      {/* Only while there is something to say: an alert is read out when it appears, and a page of
          cards should not hold a dozen empty live regions. */}
      {message && (
        <span
          role="alert"
          className="absolute right-0 top-full z-20 mt-1 w-56 rounded-md border border-red-200 bg-red-50 p-2 text-xs text-red-800 shadow"
        >
          {message}
        </span>
      )}
    </form>
  );
}
