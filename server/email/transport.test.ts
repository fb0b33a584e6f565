import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { createMailTransport, emlTransport, isPermanentFailure, type OutgoingEmail } from "./transport";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rvs-mail-"));
  dirs.push(dir);
  return dir;
}

const message: OutgoingEmail = {
  id: 42,
  kind: "claim.approved",
  to: "owner@example.com",
  subject: "Your claim to Sunny Storage is approved",
  text: "Hello,\nyour claim is approved.",
  html: "<p>Hello, your claim is <b>approved</b>.</p>",
  replyTo: "support@rvstorage.example",
  createdAt: new Date("2026-01-02T03:04:05.678Z"),
};

describe("the .eml transport (the offline default)", () => {
  it("writes DATA_DIR/mail/<timestamp>-<id>-<kind>.eml that a mail parser reads back", async () => {
    const dataDir = tempDir();
    const transport = createMailTransport(parseConfig({ DATA_DIR: dataDir, PUBLIC_URL: "https://rvstorage.example" }));
    expect(transport.describe()).toBe(`written as .eml files to ${path.join(dataDir, "mail")}`);

    const { deliveredAs } = await transport.send(message);
    expect(path.dirname(deliveredAs)).toBe(path.join(dataDir, "mail"));
    expect(path.basename(deliveredAs)).toMatch(/^\d{8}T\d{9}Z-42-claim\.approved\.eml$/);
    expect(fs.readdirSync(path.join(dataDir, "mail"))).toEqual([path.basename(deliveredAs)]);

    const raw = fs.readFileSync(deliveredAs);
    expect(raw.toString("latin1")).toContain("\r\n");
    const mail = await simpleParser(raw);
    expect(mail.from?.text).toBe('"RV Storage Directory" <no-reply@rvstorage.example>');
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : mail.to).toBe("owner@example.com");
    expect(mail.replyTo?.text).toBe("support@rvstorage.example");
    expect(mail.subject).toBe(message.subject);
    expect(mail.text?.trim()).toBe(message.text);
    expect(mail.html).toContain("<b>approved</b>");
    expect(mail.messageId).toBe(`<outbox-42-${message.createdAt.getTime()}@rvstorage.example>`);
    expect(mail.headers.get("x-email-kind")).toBe("claim.approved");
  });

  it("writes one file per attempt and leaves no temporary file behind", async () => {
    const dir = tempDir();
    const transport = emlTransport(dir, "Owners <owners@rv.example>");
    const first = await transport.send(message);
    const second = await transport.send({ ...message, id: 43, html: null, replyTo: null });
    expect(first.deliveredAs).not.toBe(second.deliveredAs);
    expect(fs.readdirSync(dir).sort()).toEqual(
      [first.deliveredAs, second.deliveredAs].map((p) => path.basename(p)).sort(),
    );
    const mail = await simpleParser(fs.readFileSync(second.deliveredAs));
    expect(mail.from?.value).toEqual([{ name: "Owners", address: "owners@rv.example" }]);
    expect(mail.replyTo).toBeUndefined();
    expect(mail.html).toBe(false);
  });
});

describe("createMailTransport", () => {
  it("sends through SMTP_URL when set, and never shows its password", () => {
    const transport = createMailTransport(parseConfig({ SMTP_URL: "smtp://mailer:s3cret@mail.example:587" }));
    expect(transport.describe()).toBe("sent through smtp://mailer@mail.example:587");
  });
});

describe("isPermanentFailure", () => {
  it("gives up on a 5xx to the recipient or the message, and retries everything else", () => {
    expect(isPermanentFailure({ responseCode: 550, command: "RCPT TO" })).toBe(true);
    expect(isPermanentFailure({ responseCode: 552, command: "DATA" })).toBe(true);
    expect(isPermanentFailure({ responseCode: 450, command: "RCPT TO" })).toBe(false);
    expect(isPermanentFailure({ responseCode: 535, command: "AUTH PLAIN" })).toBe(false);
    expect(isPermanentFailure({ responseCode: 553, command: "MAIL FROM" })).toBe(false);
    expect(isPermanentFailure(Object.assign(new Error("connect ECONNREFUSED"), { code: "ESOCKET" }))).toBe(false);
    expect(isPermanentFailure(undefined)).toBe(false);
  });
});

describe("the mail folder's modes", () => {
  const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

  it("writes the folder 0700 and each message 0600, like backups and claim evidence", async () => {
    const dir = path.join(tempDir(), "mail");
    const { deliveredAs } = await emlTransport(dir, "a@rv.example").send(message);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(deliveredAs)).toBe(0o600);
  });

  it("makes a folder and messages left readable by an older version private at start", async () => {
    const dir = tempDir();
    fs.chmodSync(dir, 0o755);
    const old = path.join(dir, "20260101T000000000Z-1-account.password-reset.eml");
    fs.writeFileSync(old, "Subject: reset\r\n\r\nhttps://rv.example/reset-password?token=x\r\n", { mode: 0o644 });
    fs.chmodSync(old, 0o644);
    await emlTransport(dir, "a@rv.example").prepare!();
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(old)).toBe(0o600);
  });
});
