import net from "node:net";

/**
 * A TCP proxy in front of a server (PostgreSQL in the fault tests) that a test can cut and
 * restore: cut() drops every open connection and refuses new ones, as a failed database host or a
 * network partition would look to the site; restore() accepts connections again on the same port.
 */
export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const port = await listen(0);
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port,
    async cut() {
      const closed = stopListening();
      dropAll();
      await closed;
    },
    async restore() {
      await listen(port);
    },
    async close() {
      const closed = server.listening ? stopListening() : Promise.resolve();
      dropAll();
      await closed;
    },
  };
}
