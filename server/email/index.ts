import { getConfig, type Config } from "../config";
import type { Database } from "../db/client";
import { logger } from "../logger";
import { createMailTransport, type MailTransport } from "./transport";
import { startEmailWorker, type EmailWorker } from "./worker";

export { enqueueEmail, type EmailMessage } from "./outbox";
export type { MailTransport } from "./transport";

/** The process's worker, while the app runs (server/app.ts boot); none in tests and tools. */
let worker: EmailWorker | undefined;

/**
 * Starts delivering the outbox: through SMTP_URL, or as .eml files under DATA_DIR/mail. Runs in
 * every app instance; they share the outbox safely (server/email/worker.ts).
 */
export function startEmail(
  db: Database,
  options: { config?: Config; transport?: MailTransport; intervalMs?: number } = {},
): void {
  if (worker) return;
  const transport = options.transport ?? createMailTransport(options.config ?? getConfig());
  // The .eml folder's modes are fixed at start, before any mail is sent (server/email/transport.ts).
  transport
    .prepare?.()
    .catch((error: unknown) => logger.warn({ err: error }, "could not make the mail folder private"));
  worker = startEmailWorker(db, transport, { intervalMs: options.intervalMs });
}

export async function stopEmail(): Promise<void> {
  const current = worker;
  worker = undefined;
  await current?.stop();
}

/**
 * Asks the worker to send now rather than at the next poll (up to 5 s later). Call it after the
 * transaction that enqueued mail has committed; before, the worker cannot see the rows yet. Does
 * nothing when no worker runs (unit tests, command-line tools): the mail waits in the outbox.
 */
export function kickEmail(): void {
  worker?.kick();
}
