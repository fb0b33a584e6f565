/** Small display rules shared by pages. Browser-safe. */

/** A phone number as shown: without a leading +1 (docs/product.md section 9). */
export function displayPhone(phone: string | null | undefined): string | null {
  const trimmed = phone?.trim();
  if (!trimmed) return null;
  return trimmed.replace(/^\+1[\s.-]*/, "");
}

/** The digits a tel: link dials, with the country code. */
export function telHref(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, "");
  return `tel:${digits.startsWith("+") ? digits : `+1${digits}`}`;
}

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** The day name an opening-hours line starts with ("Monday: 8:00 AM – 6:00 PM" -> "Monday"). */
export function hoursLineDay(line: string): string | undefined {
  const day = line.split(":")[0]?.trim();
  return day && DAYS.includes(day) ? day : undefined;
}

/**
 * Plain text split into paragraphs at blank lines (a line of only spaces counts as blank); the
 * lines inside a paragraph are kept. Line by line, so its cost is linear in the text.
 */
export function paragraphsOf(text: string): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") {
      if (current.length > 0) paragraphs.push(current.join("\n"));
      current = [];
    } else current.push(line);
  }
  if (current.length > 0) paragraphs.push(current.join("\n"));
  return paragraphs;
}

/** A file size in words: "812 bytes", "14 kB", "3.2 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} kB`;
  const mb = bytes / 1024 / 1024;
  return `${mb < 10 ? mb.toFixed(1).replace(/\.0$/, "") : Math.round(mb)} MB`;
}

/**
 * Text someone typed, closed with a full stop unless it already ends a sentence: "Posts spam" and
 * "Posts spam." both read "Posts spam." after "Reason: " (never "spam..").
 */
const CLOSING_QUOTES = new Set(['"', "'", "”", "’", ")"]);
const SENTENCE_ENDS = new Set([".", "!", "?", "…", ":", ";"]);

export function sentence(text: string): string {
  const trimmed = text.trim();
  // Closing quotes and brackets after the end of a sentence still end it: 'He said "no."'
  let end = trimmed.length - 1;
  while (end >= 0 && CLOSING_QUOTES.has(trimmed[end]!)) end--;
  return end >= 0 && SENTENCE_ENDS.has(trimmed[end]!) ? trimmed : `${trimmed}.`;
}
