import { desc, eq } from "drizzle-orm";
import type { RevisionKind } from "../../domain/listings";
import type { Database } from "../db/client";
import { listingRevisions } from "../db/schema";
import type { Actor } from "../auth/actor";

/**
 * The revision history of a listing (docs/product.md section 10): one row per change, written in
 * the transaction of the change, readable by the owner and restorable by an admin.
 */
export async function recordRevision(
  db: Database,
  entry: {
    locationId: string;
    kind: RevisionKind;
    actor: Pick<Actor, "userId" | "email">;
    fields: readonly string[];
    before: Record<string, unknown>;
    after: Record<string, unknown>;
    reason?: string | null;
    requestId?: string | null;
  },
): Promise<number> {
  const [row] = await db
    .insert(listingRevisions)
    .values({
      locationId: entry.locationId,
      kind: entry.kind,
      actorId: entry.actor.userId,
      actorEmail: entry.actor.email,
      fields: [...entry.fields],
      before: entry.before,
      after: entry.after,
      reason: entry.reason ?? null,
      requestId: entry.requestId ?? null,
    })
    .returning({ id: listingRevisions.id });
  return row!.id;
}

export interface RevisionSummary {
  id: number;
  kind: RevisionKind;
  actorEmail: string | null;
  fields: string[];
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  reason: string | null;
  createdAt: Date;
}

/** The newest revisions first, with their values (the page says who, when and what changed how). */
export async function revisionsOf(db: Database, locationId: string, limit = 50): Promise<RevisionSummary[]> {
  const rows = await db
    .select({
      id: listingRevisions.id,
      kind: listingRevisions.kind,
      actorEmail: listingRevisions.actorEmail,
      fields: listingRevisions.fields,
      before: listingRevisions.before,
      after: listingRevisions.after,
      reason: listingRevisions.reason,
      createdAt: listingRevisions.createdAt,
    })
    .from(listingRevisions)
    .where(eq(listingRevisions.locationId, locationId))
    .orderBy(desc(listingRevisions.createdAt), desc(listingRevisions.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, kind: r.kind as RevisionKind }));
}
