import net, { type AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerError } from "smtp-server";

export interface ReceivedMail {
  /** RCPT TO addresses, as the server accepted them. */
  recipients: string[];
  mail: ParsedMail;
}

export interface SmtpSink {
  port: number;
  /** `smtp://127.0.0.1:PORT`, with the credentials when the sink asks for them. */
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 for tests: it parses and keeps what it receives. `port` 0 takes
 * a free one. `rejectRecipient` answers RCPT TO with an error code (e.g. 550 or 450); `auth`
 * requires that user and password.
 */
export async function startSmtpSink(
  options: {
    port?: number;
    rejectRecipient?: (address: string) => { code: number; message: string } | undefined;
    auth?: { user: string; pass: string };
  } = {},
): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: options.auth ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    // Plain-text AUTH on a loopback test server; a real one would insist on TLS first.
    allowInsecureAuth: true,
    authOptional: !options.auth,
    onAuth(auth, _session, callback) {
      if (auth.username === options.auth?.user && auth.password === options.auth?.pass)
        return callback(null, { user: auth.username });
      const error: SMTPServerError = new Error("Invalid username or password");
      error.responseCode = 535;
      callback(error);
    },
    onRcptTo(address, _session, callback) {
      const refusal = options.rejectRecipient?.(address.address);
      if (!refusal) return callback();
      const error: SMTPServerError = new Error(refusal.message);
      error.responseCode = refusal.code;
      callback(error);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ recipients: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  const credentials = options.auth
    ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@`
    : "";
  return {
    port,
    url: `smtp://${credentials}127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A local port that nothing listens on (free a moment ago), for a mail server that is down. */
export async function unusedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
