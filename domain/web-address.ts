/**
 * A listing's website as the site may link to it: http or https only, so `javascript:`, `data:`
 * and friends never reach an href or the JSON-LD. The owner's form and the import store what this
 * returns; the facility page passes a stored value through it again before it links to it (a row
 * written before the import checked websites, or by hand). Browser-safe.
 */
export function normalizeWebsite(value: string): string | null {
  const text = value.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!url.hostname.includes(".") || url.username || url.password) return null;
  return url.toString();
}

/** A stored website fit to link to, or null (see normalizeWebsite). */
export const linkableWebsite = (value: string | null | undefined): string | null =>
  value ? normalizeWebsite(value) : null;
