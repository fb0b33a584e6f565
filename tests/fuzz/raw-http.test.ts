import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { encodeRequest, sendRaw } from "./raw-http";

/** A TCP server that answers every connection with `answer` (bytes, then close or not). */
async function rawServer(answer: (socket: net.Socket, request: Buffer) => void) {
  const server = net.createServer((socket) => {
    let seen = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      const first = seen.length === 0;
      seen = Buffer.concat([seen, chunk]);
      if (first) answer(socket, seen);
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return (server.address() as net.AddressInfo).port;
}
const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

const ping = Buffer.from("GET / HTTP/1.1\r\nHost: x\r\n\r\n");

describe("encodeRequest", () => {
  it("writes exactly what it is given: no Host added, HTTP/1.0 kept, unicode as UTF-8", () => {
    const bytes = encodeRequest({
      method: "GET",
      target: "/é?a=%zz",
      version: "HTTP/1.0",
      headers: [["X-A", "ü"]],
      body: Buffer.from("hi"),
    });
    expect(bytes.toString("utf8")).toBe("GET /é?a=%zz HTTP/1.0\r\nX-A: ü\r\n\r\nhi");
  });
});

describe("sendRaw", () => {
  it("reads a response framed by Content-Length, and ignores what follows", async () => {
    const port = await rawServer((s) => s.write("HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nabc"));
    const outcome = await sendRaw("127.0.0.1", port, ping, { timeoutMs: 5000 });
    expect(outcome).toMatchObject({ kind: "response", status: 404, bodyBytes: 3 });
  });

  it("reads a chunked response to its last chunk, after skipping a 100 Continue", async () => {
    const port = await rawServer((s) =>
      s.write(
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nRetry-After: 2\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
      ),
    );
    const outcome = await sendRaw("127.0.0.1", port, ping, { timeoutMs: 5000 });
    expect(outcome).toMatchObject({ kind: "response", status: 200, bodyBytes: 20, headers: { "retry-after": "2" } });
  });

  it("reads a body without framing until the connection closes; HEAD has none", async () => {
    const port = await rawServer((s) => s.end("HTTP/1.0 200 OK\r\n\r\nabcdef"));
    expect(await sendRaw("127.0.0.1", port, ping, { timeoutMs: 5000 })).toMatchObject({ status: 200, bodyBytes: 6 });
    const headPort = await rawServer((s) => s.write("HTTP/1.1 200 OK\r\nContent-Length: 999\r\n\r\n"));
    expect(await sendRaw("127.0.0.1", headPort, ping, { timeoutMs: 5000, head: true })).toMatchObject({
      kind: "response",
      bodyBytes: 0,
    });
  });

  it("reports a response cut short, and a connection closed without an answer", async () => {
    const cut = await rawServer((s) => s.end("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc"));
    expect(await sendRaw("127.0.0.1", cut, ping, { timeoutMs: 5000 })).toMatchObject({ kind: "closed", status: 200 });
    const silent = await rawServer((s) => s.end());
    const outcome = await sendRaw("127.0.0.1", silent, ping, { timeoutMs: 5000 });
    expect(outcome.kind).toBe("closed");
    expect(outcome).not.toHaveProperty("status", 200);
  });

  it("reports a timeout, with the status when only the head came", async () => {
    const mute = await rawServer(() => {});
    expect(await sendRaw("127.0.0.1", mute, ping, { timeoutMs: 100 })).toMatchObject({
      kind: "timeout",
      status: undefined,
    });
    const slow = await rawServer((s) => s.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nab"));
    expect(await sendRaw("127.0.0.1", slow, ping, { timeoutMs: 100 })).toMatchObject({ kind: "timeout", status: 200 });
  });
});
