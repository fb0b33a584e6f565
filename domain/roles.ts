/** The stored role values of docs/product.md section 3 (User.role). */
export const ROLES = ["user", "business_owner", "admin"] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export interface RoleFlags {
  isAdmin: boolean;
  isOwner: boolean;
}

/**
 * docs/product.md section 4: user or business_owner sets the owner flag; admin sets both. Anything else
 * (no record, an unreadable or unknown role) turns every flag off.
 */
export function roleFlags(role: unknown): RoleFlags {
  if (role === "admin") return { isAdmin: true, isOwner: true };
  if (role === "user" || role === "business_owner") return { isAdmin: false, isOwner: true };
  return { isAdmin: false, isOwner: false };
}
