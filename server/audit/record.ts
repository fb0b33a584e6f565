import type { Database } from "../db/client";
import { auditLog } from "../db/schema";

/**
 * Who a row records: a signed-in person (an Actor of server/auth/actor.ts, of which only the id
 * and email are kept), or a command-line tool (both null).
 */
export interface AuditActor {
  userId: string | null;
  email: string | null;
}

export const SYSTEM_ACTOR: AuditActor = { userId: null, email: null };

export interface AuditEntry {
  actor: AuditActor;
  /** Verb-ish and dotted, e.g. `claim.approve`, `listing.update`. */
  action: string;
  subject: { type: string; id: string };
  before?: unknown;
  after?: unknown;
  requestId?: string | null;
}

/**
 * Records one console write (docs/product.md section 10). Pass the transaction that makes the
 * write, so the row exists if and only if the write committed.
 */
export async function recordAudit(db: Database, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actor.userId,
    actorEmail: entry.actor.email,
    action: entry.action,
    subjectType: entry.subject.type,
    subjectId: entry.subject.id,
    before: entry.before ?? null,
    after: entry.after ?? null,
    requestId: entry.requestId ?? null,
  });
}
