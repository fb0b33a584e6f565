import http from "node:http";
import net, { type AddressInfo } from "node:net";

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Serves a node:http handler (an Express app, say) on a free local port, for tests over HTTP. */
export async function serve(handler: http.RequestListener): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * One request; `chunks` are written one at a time, so without a Content-Length header the body
 * goes chunked. A server that answers and closes before the body is out is not an error here.
 */
export function send(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; chunks?: (string | Buffer)[] },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, method: options.method ?? "GET", path: options.path },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    for (const [name, value] of Object.entries(options.headers ?? {})) req.setHeader(name, value);
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
    });
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}

/** A request written byte for byte (no client library adds or fixes a header); the whole answer as text. */
export function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    let out = "";
    socket.on("data", (chunk) => (out += chunk.toString("latin1")));
    socket.on("end", () => resolve(out));
    socket.on("error", reject);
  });
}
