/**
 * Links that do one thing without a sign-in (docs/product.md section 17: an owner confirming their
 * availability, a visitor confirming or leaving a waitlist): `{body}.{mac}`, the body base64url
 * JSON of the link's strings and its expiry, the mac an HMAC of the purpose and the body with the
 * site's key. Nothing secret is in it and nothing can be guessed or changed; a link made for one
 * purpose never works for another.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

const MAX_LINK_LENGTH = 2000;

const mac = (secret: string, purpose: string, body: string) =>
  createHmac("sha256", secret).update(`${purpose}:${body}`).digest("base64url").slice(0, 32);

/** A token for `purpose` carrying `fields`, working until `expires` (epoch milliseconds). */
export function signLinkToken(secret: string, purpose: string, fields: readonly string[], expires: number): string {
  const body = Buffer.from(JSON.stringify([...fields, expires])).toString("base64url");
  return `${body}.${mac(secret, purpose, body)}`;
}

export type ReadLinkToken =
  { ok: true; fields: string[]; expires: number } | { ok: false; reason: "invalid" | "expired" };

/** The token's fields when it is ours, for `purpose`, with `count` fields and not expired. */
export function readLinkToken(secret: string, purpose: string, raw: string, count: number, now: number): ReadLinkToken {
  const [body, given, extra] = raw.slice(0, MAX_LINK_LENGTH).split(".");
  if (!body || !given || extra !== undefined) return { ok: false, reason: "invalid" };
  const expected = mac(secret, purpose, body);
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected)))
    return { ok: false, reason: "invalid" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "invalid" };
  }
  if (!Array.isArray(parsed) || parsed.length !== count + 1) return { ok: false, reason: "invalid" };
  const fields = parsed.slice(0, count);
  const expires = parsed[count];
  if (!fields.every((f): f is string => typeof f === "string") || typeof expires !== "number")
    return { ok: false, reason: "invalid" };
  if (expires < now) return { ok: false, reason: "expired" };
  return { ok: true, fields, expires };
}
