import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { mailFrom, type Config } from "../config";

/** One outbox row on its way out. */
export interface OutgoingEmail {
  /** The outbox id: names the .eml file, and makes the Message-ID of every attempt the same. */
  id: number;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  replyTo?: string | null;
  createdAt: Date;
}

/** Where email goes: an SMTP server, or a folder of .eml files when none is configured. */
export interface MailTransport {
  /** Resolves once the message is handed over; `deliveredAs` is the server's answer or the file. */
  send(message: OutgoingEmail): Promise<{ deliveredAs: string }>;
  /** Where mail goes, without secrets, for the start-up log. */
  describe(): string;
  /** Work to do once at start (the .eml folder's modes); `send` waits for it too. */
  prepare?(): Promise<void>;
}

export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * True when retrying cannot help: the server answered 5xx to the recipient (RCPT TO: no such
 * mailbox) or to the message itself (DATA: too large, refused as spam). RFC 5321 says a 5yz
 * reply is not to be repeated as is. Every other error is retried with back-off: a connection
 * that fails, a 4xx, and a 5xx to AUTH or MAIL FROM, which point at our configuration (wrong
 * password, sender not allowed) and succeed once that is fixed.
 */
export function isPermanentFailure(error: unknown): boolean {
  const { responseCode, command } = (error ?? {}) as { responseCode?: unknown; command?: unknown };
  return (
    typeof responseCode === "number" &&
    responseCode >= 500 &&
    responseCode < 600 &&
    (command === "RCPT TO" || command === "DATA")
  );
}

function domainOf(from: string): string {
  const address = from.includes("<") ? from.slice(from.lastIndexOf("<") + 1, from.lastIndexOf(">")) : from;
  return address.slice(address.lastIndexOf("@") + 1) || "localhost";
}

/** The fields nodemailer composes a message from, the same for both transports. */
function composeOptions(message: OutgoingEmail, from: string) {
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    // Every attempt at one outbox row carries the same Message-ID, so a receiver can tell the
    // duplicate that at-least-once delivery may send after a crash (docs/operations.md, Email).
    messageId: `<outbox-${message.id}-${message.createdAt.getTime()}@${domainOf(from)}>`,
    headers: { "X-Email-Kind": message.kind },
  };
}

/** SMTP through nodemailer, e.g. `smtp://user:pass@mail.example:587` or `smtps://mail.example`. */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
  const shown = new URL(url);
  shown.password = "";
  return {
    async send(message) {
      const info = await transporter.sendMail(composeOptions(message, from));
      return { deliveredAs: `${info.messageId} ${info.response}`.trim() };
    },
    describe: () => `sent through ${shown.toString()}`,
  };
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, "").replace(".", "");
}

/**
 * The mail folder holds password-reset and confirmation links, so it is as private as backups and
 * claim evidence: the folder 0700, each message 0600 (docs/operations.md, "Email"). A folder or
 * files left readable by an older version are tightened at start.
 */
export const MAIL_FOLDER_MODE = 0o700;
export const MAIL_FILE_MODE = 0o600;

async function secureMailFolder(folder: string): Promise<void> {
  await fs.mkdir(folder, { recursive: true, mode: MAIL_FOLDER_MODE });
  await fs.chmod(folder, MAIL_FOLDER_MODE);
  for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
    if (entry.isFile()) await fs.chmod(path.join(folder, entry.name), MAIL_FILE_MODE);
  }
}

/**
 * The offline default: each message becomes an RFC 822 file `<timestamp>-<id>-<kind>.eml` in
 * `dir`, which any mail client opens. The file is written under a temporary name and renamed,
 * so a reader never sees half a message.
 */
export function emlTransport(dir: string, from: string): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  const folder = path.resolve(dir);
  let secured: Promise<void> | undefined;
  // Once per process; a failure (a folder not ours yet) is tried again by the next send.
  const prepare = () =>
    (secured ??= secureMailFolder(folder).catch((error: unknown) => {
      secured = undefined;
      throw error;
    }));
  return {
    prepare,
    async send(message) {
      const info = await composer.sendMail(composeOptions(message, from));
      await prepare();
      const name = `${stamp(new Date())}-${message.id}-${message.kind.replace(/[^a-z0-9_.-]/gi, "_")}.eml`;
      const target = path.join(folder, name);
      const temporary = path.join(folder, `.${name}.${randomBytes(4).toString("hex")}.tmp`);
      const file = await fs.open(temporary, "wx", MAIL_FILE_MODE);
      try {
        await file.writeFile(info.message as Buffer);
        await file.sync();
      } finally {
        await file.close();
      }
      try {
        await fs.rename(temporary, target);
      } catch (error) {
        await fs.rm(temporary, { force: true });
        throw error;
      }
      return { deliveredAs: target };
    },
    describe: () => `written as .eml files to ${folder}`,
  };
}

/** SMTP when SMTP_URL is set, else .eml files under DATA_DIR/mail. */
export function createMailTransport(
  config: Pick<Config, "SMTP_URL" | "MAIL_FROM" | "PUBLIC_URL" | "dataDir">,
): MailTransport {
  const from = mailFrom(config);
  return config.SMTP_URL ? smtpTransport(config.SMTP_URL, from) : emlTransport(path.join(config.dataDir, "mail"), from);
}
