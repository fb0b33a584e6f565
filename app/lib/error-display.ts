import { isRouteErrorResponse } from "react-router";

/** Per-status words for the error pages (the root boundary and the consoles' boundaries). */
const STATUS_MESSAGES: Record<number, { title: string; text: string }> = {
  400: { title: "That link doesn't look right", text: "Something in that address or form was not right." },
  401: { title: "Please sign in", text: "You need to sign in to see this page." },
  403: { title: "Not allowed", text: "Your account does not have access to this page." },
  404: { title: "Page not found", text: "We couldn't find that page. It may have moved." },
  410: { title: "Listing removed", text: "This page was removed and is not coming back." },
  409: { title: "Conflict", text: "That clashes with something that changed in the meantime." },
  500: { title: "Something went wrong", text: "An unexpected error occurred on our side. Please try again." },
  503: { title: "Temporarily unavailable", text: "This page can't be shown right now. Please try again in a minute." },
};

export interface ErrorDisplay {
  status: number;
  title: string;
  text: string;
}

/**
 * What to show for a thrown error. A route error response (a `data()` or an AppError, converted
 * on the server) shows its own message; anything else is a 500 with the generic text, so an
 * unexpected error never shows its message.
 */
export function describeError(error: unknown): ErrorDisplay {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const known = STATUS_MESSAGES[status] ?? (status >= 500 ? STATUS_MESSAGES[500]! : { title: "Error", text: "" });
  const text = isRouteErrorResponse(error) && typeof error.data === "string" && error.data ? error.data : known.text;
  return { status, title: known.title, text: text || STATUS_MESSAGES[500]!.text };
}

export function errorTitle(error: unknown): string {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return STATUS_MESSAGES[status]?.title ?? "Error";
}
