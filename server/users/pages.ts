import { z } from "zod";
import { MAX_TEXT_FILTER_LENGTH } from "../../domain/input-limits";
import { ROLES } from "../../domain/roles";
import { clampPage, parseTableParams } from "../../domain/table-params";
import {
  BAN_REASON_MAX,
  ROLE_LABELS,
  USER_FILTERS,
  USER_SORTS,
  USERS_PAGE_SIZE,
  type UserFilterName,
  type UserFilters,
  type UserSort,
} from "../../domain/users";
import type { SignedInViewer } from "../auth/viewer";
import { getDatabase } from "../db";
import { AppError, notFound } from "../errors";
import { formFailure, parseFormSubmission, redirectWithFlash } from "../http/form-action";
import { readForm } from "../http/form";
import { flashRefusal, isRefusal } from "../http/refusal";
import {
  banUser,
  deleteUser,
  listUsers,
  NO_SUCH_ACCOUNT,
  revokeUserSessions,
  setUserRole,
  unbanUser,
  userDetail,
} from "./service";
import { actorOf } from "../auth/actor";

/**
 * The loader and action bodies of /admin/users and /admin/users/{userId} (docs/product.md
 * section 12, "Accounts"). The admin layout's middleware has let only administrators in; every
 * write checks again, inside its transaction, that its actor still is one (server/users/service.ts).
 */
const MAX_ID_LENGTH = 200;
export const userPath = (userId: string) => `/admin/users/${encodeURIComponent(userId)}`;

function filterOf<K extends UserFilterName>(params: URLSearchParams, name: K): UserFilters[K] {
  const raw = params.get(name);
  const allowed = USER_FILTERS[name] as readonly string[];
  return (raw !== null && allowed.includes(raw) ? raw : "all") as UserFilters[K];
}

/** /admin/users: never fails on a hand-edited URL; unknown filter values mean "all". */
export async function adminUsersPage(request: Request) {
  const params = new URL(request.url).searchParams;
  const raw = params.get("q") ?? "";
  if (raw.length > MAX_TEXT_FILTER_LENGTH)
    throw new AppError("bad_request", 400, `Search for at most ${MAX_TEXT_FILTER_LENGTH} characters.`);
  const q = raw.trim();
  const table = parseTableParams<UserSort>(params, {
    sortable: USER_SORTS,
    defaultSort: "created",
    defaultDir: "desc",
  });
  const filters: UserFilters = {
    role: filterOf(params, "role"),
    verified: filterOf(params, "verified"),
    banned: filterOf(params, "banned"),
    listings: filterOf(params, "listings"),
  };
  const db = getDatabase();
  const query = { q, filters, sort: table.sort, dir: table.dir, pageSize: USERS_PAGE_SIZE };
  let found = await listUsers(db, { ...query, page: table.page });
  const page = clampPage(table.page, found.total, USERS_PAGE_SIZE);
  if (page !== table.page) found = await listUsers(db, { ...query, page });
  return { ...found, q, filters, sort: table.sort, dir: table.dir, page, pageSize: USERS_PAGE_SIZE };
}

/** /admin/users/{userId} */
export async function adminUserPage(viewer: SignedInViewer, userId: string) {
  if (userId.length > MAX_ID_LENGTH) throw notFound(NO_SUCH_ACCOUNT);
  const detail = await userDetail(getDatabase(), userId);
  return { ...detail, isSelf: viewer.userId === userId, roles: ROLES };
}

const roleSchema = z.object({
  intent: z.literal("role"),
  role: z.enum(ROLES, { error: "Choose a role." }),
});
const banSchema = z.object({
  intent: z.literal("ban"),
  reason: z
    .string({ error: "Give the reason for the ban." })
    .trim()
    .min(3, "Give the reason for the ban (at least 3 characters).")
    .max(BAN_REASON_MAX, `Keep the reason to ${BAN_REASON_MAX} characters.`),
});
const sessionsSchema = z.object({
  intent: z.literal("revoke-sessions"),
  sessionId: z.string().max(MAX_ID_LENGTH).optional(),
});
const deleteSchema = z.object({
  intent: z.literal("delete"),
  confirmEmail: z.string({ error: "Type the account's email to confirm." }).max(254),
});

/** A write on one account; the answer is that account's page (or the list, after a delete). */
export async function adminUserAction(
  request: Request,
  viewer: SignedInViewer,
  userId: string,
  requestId: string | null,
) {
  if (userId.length > MAX_ID_LENGTH) throw notFound(NO_SUCH_ACCOUNT);
  const here = userPath(userId);
  const form = await readForm(request);
  const intent = form.get("intent");
  const db = getDatabase();
  const base = { actor: actorOf(viewer), userId, requestId };
  /** Refusals a person can act on come back as a message on the page; the rest are errors. */
  const refused = (error: unknown) => flashRefusal(here, error, ["bad_request", "forbidden", "conflict"]);
  if (intent === "role") {
    const result = parseFormSubmission(roleSchema, form);
    if (!result.ok) return formFailure(result);
    try {
      const { before } = await setUserRole(db, { ...base, role: result.data.role });
      const text =
        before === result.data.role
          ? `Nothing to change: the account already is ${ROLE_LABELS[before].toLowerCase()}.`
          : `Role changed to ${ROLE_LABELS[result.data.role].toLowerCase()}.`;
      return redirectWithFlash(here, { kind: "success", text });
    } catch (error) {
      return refused(error);
    }
  }
  if (intent === "ban") {
    const result = parseFormSubmission(banSchema, form);
    if (!result.ok) return formFailure(result);
    try {
      const { sessionsEnded } = await banUser(db, { ...base, reason: result.data.reason });
      const ended = sessionsEnded === 1 ? "1 session was" : `${sessionsEnded} sessions were`;
      return redirectWithFlash(here, {
        kind: "success",
        text: `Account banned: it cannot sign in, and ${ended} ended.`,
      });
    } catch (error) {
      return refused(error);
    }
  }
  if (intent === "unban") {
    try {
      await unbanUser(db, base);
      return redirectWithFlash(here, { kind: "success", text: "Ban lifted: the account can sign in again." });
    } catch (error) {
      return refused(error);
    }
  }
  if (intent === "revoke-sessions") {
    const result = parseFormSubmission(sessionsSchema, form);
    if (!result.ok) return formFailure(result);
    try {
      const sessionId = result.data.sessionId;
      const { sessionsEnded } = await revokeUserSessions(db, {
        ...base,
        sessionIds: sessionId ? [sessionId] : undefined,
      });
      const text =
        sessionsEnded === 0
          ? "No session to end: it had ended already."
          : sessionsEnded === 1
            ? "1 session ended: that device must sign in again."
            : `${sessionsEnded} sessions ended: every device must sign in again.`;
      return redirectWithFlash(here, { kind: "success", text });
    } catch (error) {
      return refused(error);
    }
  }
  if (intent === "delete") {
    const result = parseFormSubmission(deleteSchema, form);
    if (!result.ok) return formFailure(result);
    try {
      const removed = await deleteUser(db, { ...base, expectEmail: result.data.confirmEmail });
      const released = removed.releasedListings === 1 ? "1 listing" : `${removed.releasedListings} listings`;
      return redirectWithFlash("/admin/users", {
        kind: "success",
        text: `Deleted ${removed.email}. ${released} lost their owner; ${removed.withdrawnClaims} pending claims were withdrawn.`,
      });
    } catch (error) {
      if (isRefusal(error, ["bad_request"]))
        return formFailure(result, 400, { fieldErrors: { confirmEmail: [error.message] } });
      return refused(error);
    }
  }
  throw new AppError("bad_request", 400, "Choose what to do with this account.");
}
