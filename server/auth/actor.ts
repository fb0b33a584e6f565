import type { SignedInViewer } from "./viewer";

/**
 * Who does a console write: the signed-in person as every service sees them. Routes and request
 * glue make one with `actorOf(viewer)`; services check `isAdmin` and pass the actor on to the audit
 * trail (server/audit/record.ts keeps its id and email). `name` is for what a person reads.
 */
export interface Actor {
  userId: string;
  email: string;
  name?: string | null;
  isAdmin: boolean;
}

export const actorOf = (viewer: SignedInViewer): Actor => ({
  userId: viewer.userId,
  email: viewer.email,
  name: viewer.name,
  isAdmin: viewer.isAdmin,
});
