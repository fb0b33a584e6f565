import { isRole, type Role } from "./roles";

/**
 * The accounts screens of the admin console (docs/product.md section 12, "Accounts"): the labels
 * and limits the pages and the server share. No zod here: the list page's bundle reads these.
 */
export const ROLE_LABELS: Record<Role, string> = {
  user: "User",
  business_owner: "Business owner",
  admin: "Administrator",
};

/** A stored role in words; an unknown value as it is. */
export const roleLabel = (role: string): string => (isRole(role) ? ROLE_LABELS[role] : role);

export const USER_FILTERS = {
  role: ["all", "user", "business_owner", "admin"],
  verified: ["all", "yes", "no"],
  banned: ["all", "yes", "no"],
  listings: ["all", "yes", "no"],
} as const;

export type UserFilterName = keyof typeof USER_FILTERS;
export type UserFilters = { [K in UserFilterName]: (typeof USER_FILTERS)[K][number] };

export const USER_SORTS = ["email", "name", "created", "lastLogin"] as const;
export type UserSort = (typeof USER_SORTS)[number];

export const USERS_PAGE_SIZE = 50;
/** A ban's reason: shown to other administrators, kept in the audit trail. */
export const BAN_REASON_MAX = 500;

/** "a@b.com (Ann)" style naming of an account in messages. */
export function accountName(user: { email: string; name?: string | null }): string {
  return user.name && user.name !== user.email ? `${user.name} (${user.email})` : user.email;
}
