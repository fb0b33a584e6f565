import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSmtpSink, unusedPort, type SmtpSink } from "../../tests/setup/smtp";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { emailOutbox } from "../db/schema";
import { kickEmail, startEmail, stopEmail } from "./index";
import { enqueueEmail, type EmailMessage } from "./outbox";
import { smtpTransport, type MailTransport } from "./transport";
import { deliverDueEmail, MAX_ATTEMPTS, retryDelayMs, RETRY_DELAYS_MS, startEmailWorker } from "./worker";

const FROM = "RV Storage Directory <no-reply@rvstorage.example>";
let handle: DatabaseHandle;
const sinks: SmtpSink[] = [];

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});
beforeEach(async () => {
  await handle.db.delete(emailOutbox);
});
afterEach(async () => {
  await stopEmail();
  await Promise.all(sinks.splice(0).map((sink) => sink.close()));
});

async function sink(options: Parameters<typeof startSmtpSink>[0] = {}): Promise<SmtpSink> {
  const started = await startSmtpSink(options);
  sinks.push(started);
  return started;
}

const message = (overrides: Partial<EmailMessage> = {}): EmailMessage => ({
  kind: "claim.approved",
  to: "owner@example.com",
  subject: "Your claim is approved",
  text: "Hello,\nyour claim to Sunny RV Storage is approved.",
  ...overrides,
});

const rowOf = async (id: number) => (await handle.db.select().from(emailOutbox).where(eq(emailOutbox.id, id)))[0]!;

const later = (ms: number) => new Date(Date.now() + ms);

describe("email delivery through SMTP", () => {
  it("sends an enqueued message with its To, Subject, body and Reply-To, and marks it sent", async () => {
    const server = await sink();
    const id = await enqueueEmail(
      handle.db,
      message({ replyTo: "support@rvstorage.example", html: "<p>Your claim is <b>approved</b>.</p>" }),
    );

    const result = await deliverDueEmail(handle.db, smtpTransport(server.url, FROM));

    expect(result).toEqual({ sent: 1, retrying: 0, failed: 0, released: 0 });
    expect(server.received).toHaveLength(1);
    const { recipients, mail } = server.received[0]!;
    expect(recipients).toEqual(["owner@example.com"]);
    expect(mail.subject).toBe("Your claim is approved");
    expect(mail.text?.trim()).toBe("Hello,\nyour claim to Sunny RV Storage is approved.");
    expect(mail.html).toContain("<b>approved</b>");
    expect(mail.replyTo?.value).toEqual([{ name: "", address: "support@rvstorage.example" }]);
    expect(mail.from?.value).toEqual([{ name: "RV Storage Directory", address: "no-reply@rvstorage.example" }]);

    const row = await rowOf(id);
    expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(row.deliveredAs).toContain(mail.messageId!);
    // Nothing is sent twice.
    expect(await deliverDueEmail(handle.db, smtpTransport(server.url, FROM), { now: later(86_400_000) })).toEqual({
      sent: 0,
      retrying: 0,
      failed: 0,
      released: 0,
    });
    expect(server.received).toHaveLength(1);
  });

  it("logs in with the credentials in SMTP_URL", async () => {
    const server = await sink({ auth: { user: "mailer", pass: "p@ss word" } });
    await enqueueEmail(handle.db, message());
    expect((await deliverDueEmail(handle.db, smtpTransport(server.url, FROM))).sent).toBe(1);
    expect(server.received).toHaveLength(1);
  });

  it("keeps the message while the server is down and delivers it, once, after it comes up", async () => {
    const port = await unusedPort();
    const transport = smtpTransport(`smtp://127.0.0.1:${port}`, FROM);
    const id = await enqueueEmail(handle.db, message());

    const before = Date.now();
    expect(await deliverDueEmail(handle.db, transport)).toMatchObject({ sent: 0, retrying: 1 });
    const pending = await rowOf(id);
    expect(pending).toMatchObject({ status: "pending", attempts: 1 });
    expect(pending.lastError).toMatch(/ECONNREFUSED/);
    expect(pending.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + RETRY_DELAYS_MS[0]!);
    // Not due again before the back-off has passed.
    expect(await deliverDueEmail(handle.db, transport)).toMatchObject({ sent: 0, retrying: 0 });

    const server = await sink({ port });
    const result = await deliverDueEmail(handle.db, transport, { now: later(RETRY_DELAYS_MS[0]! + 1000) });
    expect(result).toMatchObject({ sent: 1, retrying: 0 });
    await deliverDueEmail(handle.db, transport, { now: later(86_400_000) });
    expect(server.received).toHaveLength(1);
    expect(await rowOf(id)).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("sends nothing for a transaction that rolled back", async () => {
    const server = await sink();
    await handle.db
      .transaction(async (tx) => {
        await enqueueEmail(tx, message());
        throw new Error("the claim could not be approved");
      })
      .catch(() => {});
    expect(await handle.db.select().from(emailOutbox)).toEqual([]);
    expect((await deliverDueEmail(handle.db, smtpTransport(server.url, FROM))).sent).toBe(0);
    expect(server.received).toHaveLength(0);
  });

  it("sends each message once when two workers race over the same rows", async () => {
    const server = await sink();
    const count = 30;
    for (let i = 0; i < count; i++) await enqueueEmail(handle.db, message({ subject: `Message ${i}` }));
    const transport = smtpTransport(server.url, FROM);
    const drain = async () => {
      let sent = 0;
      for (;;) {
        const result = await deliverDueEmail(handle.db, transport, { batch: 4 });
        sent += result.sent;
        if (result.sent + result.retrying + result.failed === 0) return sent;
      }
    };

    const [a, b] = await Promise.all([drain(), drain()]);

    expect(a + b).toBe(count);
    expect(server.received).toHaveLength(count);
    expect(new Set(server.received.map((r) => r.mail.subject)).size).toBe(count);
    const rows = await handle.db.select().from(emailOutbox);
    expect(rows.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
  });

  it("gives a 5xx-refused recipient up at once, and retries a 4xx", async () => {
    const server = await sink({
      rejectRecipient: (address) =>
        address.startsWith("gone@")
          ? { code: 550, message: "No such user" }
          : address.startsWith("full@")
            ? { code: 452, message: "Mailbox full, try later" }
            : undefined,
    });
    const gone = await enqueueEmail(handle.db, message({ to: "gone@example.com" }));
    const full = await enqueueEmail(handle.db, message({ to: "full@example.com" }));

    const result = await deliverDueEmail(handle.db, smtpTransport(server.url, FROM));

    expect(result).toMatchObject({ sent: 0, failed: 1, retrying: 1 });
    expect(await rowOf(gone)).toMatchObject({ status: "failed", attempts: 1 });
    expect((await rowOf(gone)).lastError).toMatch(/550/);
    expect(await rowOf(full)).toMatchObject({ status: "pending", attempts: 1 });
    expect((await rowOf(full)).lastError).toMatch(/452/);
    expect(server.received).toHaveLength(0);
  });
});

describe("retries", () => {
  const broken: MailTransport = {
    send: () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:25"), { code: "ESOCKET" })),
    describe: () => "nowhere",
  };

  it("backs off 30 s, 2 min, 10 min, 1 h, 6 h and then daily", () => {
    expect([1, 2, 3, 4, 5, 6, 9].map(retryDelayMs)).toEqual([
      30_000, 120_000, 600_000, 3_600_000, 21_600_000, 86_400_000, 86_400_000,
    ]);
  });

  it(`marks a message failed after ${MAX_ATTEMPTS} attempts`, async () => {
    const id = await enqueueEmail(handle.db, message());
    let now = new Date();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const result = await deliverDueEmail(handle.db, broken, { now });
      expect(result).toMatchObject(attempt < MAX_ATTEMPTS ? { retrying: 1 } : { failed: 1 });
      const row = await rowOf(id);
      expect(row.attempts).toBe(attempt);
      expect(row.status).toBe(attempt < MAX_ATTEMPTS ? "pending" : "failed");
      now = new Date(row.nextAttemptAt.getTime() + 1);
    }
    expect((await rowOf(id)).lastError).toBe("ESOCKET: connect ECONNREFUSED 127.0.0.1:25");
    expect(await deliverDueEmail(handle.db, broken, { now: later(365 * 86_400_000) })).toMatchObject({ failed: 0 });
  });
});

describe("the polling worker", () => {
  it("sends at once when kicked after a commit, and not before it is started", async () => {
    const server = await sink();
    const id = await handle.db.transaction((tx) => enqueueEmail(tx, message()));
    // No worker yet: the kick does nothing and throws nothing, and no timer or transport exists
    // that could send later; the message waits in the outbox, untried, for the worker's start.
    kickEmail();
    expect(await rowOf(id)).toMatchObject({ status: "pending", attempts: 0 });
    expect(server.received).toHaveLength(0);

    // A poll interval far longer than the test: only the start and the kick can send.
    startEmail(handle.db, { transport: smtpTransport(server.url, FROM), intervalMs: 600_000 });
    await expect.poll(() => server.received.length).toBe(1);

    await handle.db.transaction((tx) => enqueueEmail(tx, message({ subject: "Second" })));
    kickEmail();
    await expect.poll(() => server.received.length).toBe(2);
    expect(server.received[1]!.mail.subject).toBe("Second");
  });

  it("polls, and stop() waits for the delivery under way", async () => {
    let release!: () => void;
    const sent: number[] = [];
    const slow: MailTransport = {
      send: async (mail) => {
        await new Promise<void>((resolve) => (release = resolve));
        sent.push(mail.id);
        return { deliveredAs: "slow" };
      },
      describe: () => "slow",
    };
    const worker = startEmailWorker(handle.db, slow, { intervalMs: 20 });
    const id = await enqueueEmail(handle.db, message());
    await expect.poll(() => release !== undefined).toBe(true);
    const stopping = worker.stop();
    release();
    await stopping;
    expect(sent).toEqual([id]);
    expect(await rowOf(id)).toMatchObject({ status: "sent", deliveredAs: "slow" });
  });
});
