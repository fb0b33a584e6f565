/** What the benchmarks share: a browser's user agent, an anonymous visitor's session, medians and tables. */

/** A desktop Chrome: the analytics endpoint and the session API turn bots away. */
export const USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

/** A new anonymous session for a visitor at `address` (sent in X-Forwarded-For); its cookie header. */
export async function anonymousSession(baseUrl: string, address: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in/anonymous`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: baseUrl,
      "user-agent": USER_AGENT,
      "x-forwarded-for": address,
    },
    body: "{}",
  });
  if (!response.ok) throw new Error(`Anonymous sign-in failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .join("; ");
  if (!cookie) throw new Error("Anonymous sign-in set no cookie");
  return cookie;
}

/** The median of the finite values (NaN when there is none): the figure the notes quote. */
export function median(values: readonly number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A Markdown table, first column left-aligned and the others right-aligned. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, c) => Math.max(...cells.map((row) => row[c]!.length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(" | ")} |`;
  return [
    line(headers),
    `|${widths.map((w, c) => (c === 0 ? `-${"-".repeat(w)}-` : `-${"-".repeat(w)}:`)).join("|")}|`,
    ...cells.slice(1).map(line),
  ].join("\n");
}
