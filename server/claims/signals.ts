import { normalizeUsPhone } from "../../domain/claim-form";

/**
 * What the reviewer weighs (docs/product.md section 10). None decides on its own: a claimant on
 * a free-mail address may be the real owner, a matching domain can be bought.
 */
export interface ClaimSignals {
  emailDomain: string;
  websiteHost: string | null;
  /** The business email's domain is the listing website's domain (or a subdomain of it). */
  emailMatchesWebsite: boolean;
  freeMailProvider: boolean;
  /** The business phone equals the listing's phone (both read as US numbers). */
  phoneMatchesListing: boolean;
  accountAgeDays: number;
  otherClaims: { pending: number; approved: number; rejected: number; withdrawn: number };
}

const FREE_MAIL = new Set([
  "gmail.com",
  "googlemail.com",
  "yahoo.com",
  "hotmail.com",
  "outlook.com",
  "live.com",
  "msn.com",
  "aol.com",
  "icloud.com",
  "me.com",
  "mac.com",
  "proton.me",
  "protonmail.com",
  "gmx.com",
  "mail.com",
  "zoho.com",
  "yandex.com",
  "comcast.net",
  "att.net",
  "sbcglobal.net",
  "verizon.net",
]);

const stripWww = (host: string) => (host.startsWith("www.") ? host.slice(4) : host);

export function websiteHost(website: string | null | undefined): string | null {
  if (!website) return null;
  try {
    const url = new URL(/^https?:\/\//i.test(website) ? website : `https://${website}`);
    return stripWww(url.hostname.toLowerCase());
  } catch {
    return null;
  }
}

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}

export function domainsMatch(mailDomain: string, host: string | null): boolean {
  if (!host || !mailDomain) return false;
  const mail = stripWww(mailDomain);
  return mail === host || mail.endsWith(`.${host}`) || host.endsWith(`.${mail}`);
}

export function phonesMatch(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const left = normalizeUsPhone(a);
  return left !== null && left === normalizeUsPhone(b);
}

export function computeSignals(input: {
  businessEmail: string;
  businessPhone: string;
  listingWebsite: string | null;
  listingPhones: (string | null)[];
  accountCreatedAt: Date;
  otherClaims: ClaimSignals["otherClaims"];
  now?: Date;
}): ClaimSignals {
  const domain = emailDomain(input.businessEmail);
  const host = websiteHost(input.listingWebsite);
  const now = input.now ?? new Date();
  return {
    emailDomain: domain,
    websiteHost: host,
    emailMatchesWebsite: domainsMatch(domain, host),
    freeMailProvider: FREE_MAIL.has(domain),
    phoneMatchesListing: input.listingPhones.some((p) => phonesMatch(input.businessPhone, p)),
    accountAgeDays: Math.max(0, Math.floor((now.getTime() - input.accountCreatedAt.getTime()) / 86_400_000)),
    otherClaims: input.otherClaims,
  };
}
