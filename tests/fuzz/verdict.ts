/**
 * What counts as a failure of the fuzz suite, and how failures are grouped into classes. Kept apart
 * from the runner so that the rules have their own unit test.
 */
import type { FuzzInput } from "./requests";
import type { RawOutcome, RawRequest } from "./raw-http";

/** What the verdict needs to know about the request beyond the outcome. */
export interface Sent {
  /** The body is shorter than its Content-Length. */
  bodyShort: boolean;
  bodyBytes: number;
}

export const sentOf = (input: FuzzInput): Sent => ({
  bodyShort: input.bodyShort,
  bodyBytes: input.request.body.length,
});

/** Bodies above this may be refused by closing the connection instead of reading them. */
const LARGE_BODY = 64 * 1024;

/** A failure kind, or null when the outcome is acceptable. */
export function judge(outcome: RawOutcome, input: Sent): string | null {
  switch (outcome.kind) {
    case "response":
      if (outcome.status < 500) return null;
      // Load shedding is documented to answer 503 with Retry-After (docs/api.md).
      if (outcome.status === 503 && outcome.headers["retry-after"] !== undefined) return null;
      return String(outcome.status);
    case "timeout":
      // A body shorter than its Content-Length: the server rightly waits for the rest.
      if (input.bodyShort) return null;
      return outcome.status === undefined ? "no answer in time" : `answer ${outcome.status} not finished in time`;
    case "closed":
      // A server may answer a large body it does not want and close at once; the client's
      // unsent bytes then meet a reset, which can discard the answer before it is read.
      if (
        outcome.status === undefined &&
        input.bodyBytes > LARGE_BODY &&
        /ECONNRESET|EPIPE/.test(outcome.error ?? "")
      ) {
        return null;
      }
      return outcome.status === undefined ? "closed without an answer" : `answer ${outcome.status} cut short`;
  }
}

const LONG = 1000;

/** The query keys of a target whose raw value is long. */
function longQueryKeys(target: string): string[] {
  const query = target.split("#")[0]?.split("?").slice(1).join("?") ?? "";
  return [
    ...new Set(
      query
        .split("&")
        .filter((pair) => pair.length > LONG)
        .map((pair) => pair.split("=")[0] ?? ""),
    ),
  ].sort();
}

/**
 * What a request carries that is large: long query values (by key), a long path, long headers (by
 * name), a large body. Requests that stall the server are grouped by this and their route.
 */
export function largeParts(request: RawRequest): string[] {
  const parts = longQueryKeys(request.target).map((key) => `query ${key}`);
  const path = request.target.split("?")[0] ?? "";
  if (path.length > LONG) parts.push("path");
  for (const [name, value] of request.headers) if (value.length > LONG) parts.push(`header ${name.toLowerCase()}`);
  if (request.body.length > 64 * 1024) parts.push("body");
  return parts;
}

/** The class of a stall: the route and what was large, so that one hang is retried only a few times. */
export function stallClass(route: string, request: RawRequest): string {
  const parts = largeParts(request);
  return `stall on ${route}${parts.length ? ` with long ${parts.join(", ")}` : ""}`;
}

/**
 * The class of a (minimised) failing request: the failure, method, path, query keys, version,
 * header names and body type. Two requests in one class differ only in values.
 */
export function failureClass(kind: string, request: RawRequest, siteHost: string): string {
  const [pathAndQuery = ""] = request.target.split("#");
  // An absolute-form target keeps its authority, named "site" when it is this site's.
  const authority = /^[a-z]+:\/\/[^/?#]*/i.exec(pathAndQuery)?.[0] ?? "";
  const [path = "", query = ""] = pathAndQuery.slice(authority.length).split(/\?(.*)/s);
  const shownAuthority = authority.replace(siteHost, "site");
  const keys = query ? [...new Set(query.split("&").map((pair) => pair.split("=")[0]))].sort().join("&") : "";
  const shownPath = path.length > 60 ? `${path.slice(0, 60)}…` : path;
  // A Host other than this site's is its own class, whatever its value.
  const headers = [
    ...new Set(
      request.headers.map(([name, value]) => {
        const lower = name.toLowerCase();
        return lower === "host" && value !== siteHost ? "host(not this site)" : lower;
      }),
    ),
  ]
    .filter((name) => name !== "connection")
    .sort()
    .join(",");
  const type = request.headers.find(([name]) => name.toLowerCase() === "content-type")?.[1];
  const body = request.body.length > 0 ? ` body(${type ?? "untyped"})` : "";
  // The write methods reach the same action: one class for all four.
  const method = ["POST", "PUT", "PATCH", "DELETE"].includes(request.method) ? "POST|PUT|PATCH|DELETE" : request.method;
  return `${kind}: ${method} ${shownAuthority}${shownPath}${keys ? `?${keys}` : ""} ${request.version} [${headers}]${body}`;
}
