import type { Database } from "../db/client";
import { emailOutbox } from "../db/schema";

/** Placeholder until the outbox branch lands: inserts the pending row. */
export async function enqueueEmail(
  db: Database,
  message: { kind: string; to: string; subject: string; text: string; html?: string; replyTo?: string },
): Promise<number> {
  const [row] = await db
    .insert(emailOutbox)
    .values({
      kind: message.kind,
      toAddress: message.to,
      subject: message.subject,
      textBody: message.text,
      htmlBody: message.html ?? null,
      replyTo: message.replyTo ?? null,
    })
    .returning({ id: emailOutbox.id });
  return row!.id;
}
