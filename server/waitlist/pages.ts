/**
 * The waitlist's pages (docs/product.md section 17): /location/{slug}/waitlist to join, and the
 * links of its emails, /waitlist/confirm and /waitlist/leave, which ask first and act on the POST,
 * so a mail scanner following a link changes nothing.
 */
import { z } from "zod";
import { sizeKey } from "../../domain/availability";
import { AVAILABILITY_LABELS, type SizeOffer } from "../../domain/listings";
import { WAITLIST_MESSAGES, WAITLIST_RV_LENGTH } from "../../domain/waitlist";
import { getViewer, isSignedIn } from "../auth/viewer";
import { getDatabase } from "../db";
import { readForm } from "../http/form";
import { formFailure, parseFormSubmission } from "../http/form-action";
import { formRefusal } from "../http/refusal";
import { clientIp } from "../http/rate-limit";
import { createSharedRateLimiter } from "../http/shared-rate-limit";
import { listedLocationBySlug } from "../locations/pages";
import { kickEmail } from "../email";
import {
  confirmLinkState,
  confirmWaitlist,
  joinWaitlist,
  leaveLinkState,
  leaveWaitlist,
  waitlistSizes,
} from "./service";

/** Joins per address and per email: enough for a family, too few to flood an inbox. */
export const WAITLIST_RATE_LIMITS = {
  perIp: { name: "waitlist-ip", windowMs: 10 * 60_000, max: 10 },
  perEmail: { name: "waitlist-email", windowMs: 24 * 60 * 60_000, max: 5 },
} as const;

const EMAIL_MAX = 254;
const TOKEN_MAX = 2000;

/** The sizes offered to wait for, with their status words ("12x40 ft · Full"). */
function sizeChoices(offers: readonly SizeOffer[]) {
  const waiting = new Set(waitlistSizes(offers));
  return offers
    .filter((o) => waiting.has(sizeKey(o)))
    .map((o) => ({ key: sizeKey(o), label: `${sizeKey(o)} ft · ${AVAILABILITY_LABELS[o.availability!]}` }));
}

/** GET /location/{slug}/waitlist: the form, with `?size=12x40` chosen when it is one of the choices. */
export async function waitlistPage(request: Request, slug: string) {
  const location = await listedLocationBySlug(slug);
  const sizes = sizeChoices((location.sizeOffers ?? []) as SizeOffer[]);
  const asked = (new URL(request.url).searchParams.get("size") ?? "").slice(0, 20);
  const viewer = await getViewer(request);
  return {
    listing: { name: location.name, slug: location.slug },
    sizes,
    size: sizes.some((s) => s.key === asked) ? asked : (sizes[0]?.key ?? ""),
    email: isSignedIn(viewer) ? viewer.email : "",
  };
}

const joinSchema = (sizes: readonly string[]) =>
  z.object({
    size: z.string({ error: WAITLIST_MESSAGES.size }).refine((v) => sizes.includes(v), WAITLIST_MESSAGES.size),
    email: z.email({ error: WAITLIST_MESSAGES.email }).max(EMAIL_MAX, WAITLIST_MESSAGES.email),
    rvLengthFeet: z.coerce
      .number({ error: WAITLIST_MESSAGES.rvLength })
      .min(WAITLIST_RV_LENGTH.min, WAITLIST_MESSAGES.rvLength)
      .max(WAITLIST_RV_LENGTH.max, WAITLIST_MESSAGES.rvLength),
  });

/** POST /location/{slug}/waitlist: the same answer for every address (see joinWaitlist). */
export async function waitlistAction(request: Request, slug: string) {
  const location = await listedLocationBySlug(slug);
  const form = await readForm(request);
  const sizes = waitlistSizes((location.sizeOffers ?? []) as SizeOffer[]);
  const parsed = parseFormSubmission(joinSchema(sizes), form);
  if (!parsed.ok) return formFailure(parsed);
  const db = getDatabase();
  for (const [limit, key] of [
    [WAITLIST_RATE_LIMITS.perIp, clientIp(request)],
    [WAITLIST_RATE_LIMITS.perEmail, parsed.data.email.toLowerCase()],
  ] as const) {
    const hit = await createSharedRateLimiter(db, limit).hit(key);
    if (!hit.ok)
      return formFailure(parsed, 429, {
        formError: "You have asked several times already. Please try again in a little while.",
        headers: { "Retry-After": String(hit.retryAfterSeconds) },
      });
  }
  const viewer = await getViewer(request);
  try {
    await joinWaitlist(db, {
      locationId: location.placeId,
      sizeKey: parsed.data.size,
      email: parsed.data.email,
      rvLengthFeet: parsed.data.rvLengthFeet,
      visitorUserId: isSignedIn(viewer) ? viewer.userId : null,
    });
  } catch (error) {
    // The size opened (or the listing left) since the page was served.
    return formRefusal(parsed, error, ["bad_request"], { field: "size" });
  }
  kickEmail();
  return { joined: true as const, message: WAITLIST_MESSAGES.sent };
}

const tokenOf = (value: unknown) => (typeof value === "string" ? value.slice(0, TOKEN_MAX) : "");

function linkView(state: Awaited<ReturnType<typeof confirmLinkState>>) {
  return state.ok
    ? {
        ok: true as const,
        status: state.entry.status,
        size: state.entry.sizeKey,
        listing: state.listing,
      }
    : state;
}

/** GET /waitlist/confirm and /waitlist/leave: what the link is about, or why it does not work. */
export async function waitlistLinkPage(request: Request, kind: "confirm" | "leave") {
  const token = tokenOf(new URL(request.url).searchParams.get("token"));
  const db = getDatabase();
  const state = kind === "confirm" ? await confirmLinkState(db, token) : await leaveLinkState(db, token);
  return { token, state: linkView(state) };
}

/** POST /waitlist/confirm and /waitlist/leave. */
export async function waitlistLinkAction(request: Request, kind: "confirm" | "leave") {
  const form = await readForm(request);
  const token = tokenOf(form.get("token"));
  const db = getDatabase();
  const done = kind === "confirm" ? await confirmWaitlist(db, token) : await leaveWaitlist(db, token);
  return { done: true as const, state: linkView(done) };
}
