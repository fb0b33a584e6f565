/**
 * HTTP/1.x over a bare TCP socket, for the fuzz suite: node:http and fetch refuse to send (or
 * silently repair) most of what the fuzzer needs to send, such as a missing or malformed Host, an
 * HTTP/1.0 request line, raw bytes in the target, or a Content-Length that lies. One request per
 * connection; the answer is read just far enough to know its status and that it ended.
 */
import net from "node:net";

export interface RawRequest {
  method: string;
  /** The request-target exactly as sent (origin-form, absolute-form or `*`). */
  target: string;
  version: "HTTP/1.1" | "HTTP/1.0";
  /** Sent in this order, as written; nothing is added. */
  headers: (readonly [name: string, value: string])[];
  body: Uint8Array;
}

export type RawOutcome =
  /** A complete response (a 1xx interim answer is skipped). */
  | { kind: "response"; status: number; headers: Record<string, string>; bodyBytes: number; ms: number }
  /** Nothing complete within the time allowed; `status` when the head had arrived. */
  | { kind: "timeout"; ms: number; status?: number }
  /** The connection ended before a complete response; `status` when the head had arrived. */
  | { kind: "closed"; ms: number; status?: number; error?: string };

/** The bytes on the wire: request line and headers in UTF-8 (so unicode goes out raw), then the body. */
export function encodeRequest(request: RawRequest): Buffer {
  const head =
    `${request.method} ${request.target} ${request.version}\r\n` +
    request.headers.map(([name, value]) => `${name}: ${value}\r\n`).join("") +
    "\r\n";
  return Buffer.concat([Buffer.from(head, "utf8"), request.body]);
}

interface Head {
  status: number;
  headers: Record<string, string>;
}

function parseHead(text: string): Head | undefined {
  const [statusLine = "", ...lines] = text.split("\r\n");
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!match) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status: Number(match[1]), headers };
}

/**
 * Where a chunked body ends in `data` (from `start`), or undefined while it is incomplete.
 * Trailers are not expected from this server; the last chunk is followed by an empty line.
 */
function chunkedEnd(data: Buffer, start: number): number | undefined {
  let at = start;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString("latin1").split(";")[0] ?? "", 16);
    if (!Number.isFinite(size)) return undefined;
    if (size === 0) {
      const end = data.indexOf("\r\n\r\n", lineEnd);
      return end < 0 ? undefined : end + 4;
    }
    at = lineEnd + 2 + size + 2;
    if (at > data.length) return undefined;
  }
}

/**
 * Sends `bytes` on a new connection and reads one response. Never rejects. The connection is not
 * half-closed after the request: Node's server treats that as the client going away and drops
 * the request unanswered (so a body shorter than its Content-Length waits for the rest).
 */
export function sendRaw(
  host: string,
  port: number,
  bytes: Uint8Array,
  { timeoutMs, head = false }: { timeoutMs: number; head?: boolean },
): Promise<RawOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let data = Buffer.alloc(0);
    let parsed: (Head & { bodyStart: number }) | undefined;
    let settled = false;
    const socket = net.connect({ host, port });
    const finish = (outcome: RawOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: "timeout", ms: elapsed(), status: parsed?.status }), timeoutMs);

    /** Completes the outcome when the response has ended; `closed` says the peer has gone. */
    const check = (closed: boolean, error?: string) => {
      for (;;) {
        if (!parsed) {
          const end = data.indexOf("\r\n\r\n");
          if (end < 0) break;
          const headParsed = parseHead(data.subarray(0, end).toString("latin1"));
          if (!headParsed) return finish({ kind: "closed", ms: elapsed(), error: "not an HTTP response" });
          if (headParsed.status < 200) {
            data = data.subarray(end + 4);
            continue;
          }
          parsed = { ...headParsed, bodyStart: end + 4 };
        }
        break;
      }
      if (!parsed) {
        if (closed) finish({ kind: "closed", ms: elapsed(), error });
        return;
      }
      const { status, headers, bodyStart } = parsed;
      const respond = (bodyBytes: number) => finish({ kind: "response", status, headers, bodyBytes, ms: elapsed() });
      if (head || status === 204 || status === 304) return respond(0);
      if (/\bchunked\b/i.test(headers["transfer-encoding"] ?? "")) {
        const end = chunkedEnd(data, bodyStart);
        if (end !== undefined) return respond(end - bodyStart);
      } else if (headers["content-length"] !== undefined) {
        const length = Number(headers["content-length"]);
        if (data.length - bodyStart >= length) return respond(length);
      } else if (closed) {
        return respond(data.length - bodyStart);
      }
      if (closed) finish({ kind: "closed", ms: elapsed(), status, error: error ?? "response cut short" });
    };

    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      check(false);
    });
    socket.on("end", () => check(true));
    socket.on("close", () => check(true));
    // A server may answer (413, 400) and close before reading a large body: the write then fails
    // with EPIPE or ECONNRESET, but the answer may already be here.
    socket.on("error", (error) => check(true, error.message));
    socket.on("connect", () => {
      socket.write(bytes);
    });
  });
}
