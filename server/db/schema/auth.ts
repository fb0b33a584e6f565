import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text } from "drizzle-orm/pg-core";
import { ROLES } from "../../../domain/roles";
import { timestamps } from "./columns";
import { locations } from "./locations";
import { at } from "./columns";

/**
 * The tables better-auth reads and writes (server/auth/auth.ts maps its models onto them), plus
 * listing ownership. Column sets follow better-auth's core schema with the anonymous and admin
 * plugins; `last_login_at` is User.lastLoginAt of docs/product.md section 3.
 */

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    role: text("role").notNull().default("user"),
    banned: boolean("banned").notNull().default(false),
    banReason: text("ban_reason"),
    banExpires: at("ban_expires"),
    isAnonymous: boolean("is_anonymous").notNull().default(false),
    lastLoginAt: at("last_login_at"),
    ...timestamps,
  },
  (t) => [
    check("users_role_check", sql.raw(`${t.role.name} in (${ROLES.map((r) => `'${r}'`).join(", ")})`)),
    index("users_anonymous_idx").on(t.isAnonymous, t.updatedAt),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: at("expires_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    impersonatedBy: text("impersonated_by"),
    ...timestamps,
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: at("access_token_expires_at"),
    refreshTokenExpiresAt: at("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
    ...timestamps,
  },
  (t) => [index("accounts_user_idx").on(t.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: at("expires_at").notNull(),
    ...timestamps,
  },
  (t) => [index("verifications_identifier_idx").on(t.identifier)],
);

/** Who owns which listing. A claim, once approved, writes a row here (one owner per listing). */
export const listingOwners = pgTable(
  "listing_owners",
  {
    locationId: text("location_id")
      .primaryKey()
      .references(() => locations.placeId, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [index("listing_owners_user_idx").on(t.userId)],
);
