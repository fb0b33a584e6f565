/**
 * A number as en-US writes it, with thousands separators: "12,345", "1,234.5". Whole numbers are
 * grouped without Intl: the first Intl formatter on a page loads the locale's data (about 10 ms on a
 * phone), and public pages show counts and prices ("(1,234 reviews)", "$1,250/mo") while they
 * hydrate. Other numbers go through Intl, as `toLocaleString("en-US")` would.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  const digits = String(Math.abs(n));
  let out = "";
  for (let end = digits.length; end > 0; end -= 3) {
    out = digits.slice(Math.max(0, end - 3), end) + (out ? `,${out}` : "");
  }
  return n < 0 ? `-${out}` : out;
}
