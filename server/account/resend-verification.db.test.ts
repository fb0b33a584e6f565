import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { createAccount, installTestAuth } from "../../tests/setup/auth";
import type { Auth } from "../auth/auth";
import type { SignedInViewer } from "../auth/viewer";
import { connectDatabase, disconnectDatabase } from "../db";
import type { DatabaseHandle } from "../db/client";
import { emailOutbox, users } from "../db/schema";
import { RESEND_VERIFICATION_LIMIT, resendVerification, unconfirmedEmailOf } from "./resend-verification";

let handle: DatabaseHandle;
let auth: Auth;
beforeAll(async () => {
  handle = await connectDatabase(await createTestDatabase());
  auth = installTestAuth(handle.db);
});
afterAll(async () => {
  await disconnectDatabase().catch(() => {});
});

async function viewer(email: string, verified: boolean): Promise<SignedInViewer> {
  const { userId } = await createAccount(auth, handle.db, { email, verified });
  return {
    sessionId: "s",
    userId,
    isAnonymous: false,
    role: "user",
    isAdmin: false,
    isOwner: true,
    email,
    name: "Sam",
  };
}

const mailTo = async (address: string) =>
  (await handle.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, address))).map((m) => m.kind);

describe("sending the confirmation link again", () => {
  it(`sends a new link at most ${RESEND_VERIFICATION_LIMIT.max} times an hour, then says to wait`, async () => {
    const sam = await viewer("unconfirmed@example.com", false);
    expect(await unconfirmedEmailOf(handle.db, sam.userId)).toBe("unconfirmed@example.com");
    const before = (await mailTo("unconfirmed@example.com")).length;
    for (let i = 0; i < RESEND_VERIFICATION_LIMIT.max; i++)
      expect(await resendVerification(handle.db, sam)).toEqual({ kind: "sent", email: "unconfirmed@example.com" });
    const limited = await resendVerification(handle.db, sam);
    expect(limited.kind).toBe("limited");
    const sent = await mailTo("unconfirmed@example.com");
    expect(sent.length - before).toBe(RESEND_VERIFICATION_LIMIT.max);
    expect(sent.every((t) => t === "account.verify-email")).toBe(true);
  });

  it("sends nothing to a confirmed address and hides the banner", async () => {
    const pat = await viewer("confirmed@example.com", true);
    expect(await unconfirmedEmailOf(handle.db, pat.userId)).toBeNull();
    const before = (await mailTo("confirmed@example.com")).length; // the sign-up email
    expect(await resendVerification(handle.db, pat)).toEqual({ kind: "confirmed" });
    expect(await mailTo("confirmed@example.com")).toHaveLength(before);
    const [row] = await handle.db.select().from(users).where(eq(users.id, pat.userId));
    expect(row?.emailVerified).toBe(true);
  });
});
