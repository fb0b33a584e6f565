import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createAccount, setUpAuthDatabase } from "../../tests/setup/auth";
import type { SignedInViewer } from "../auth/viewer";
import { emailOutbox, users } from "../db/schema";
import { RESEND_VERIFICATION_LIMIT, resendVerification, unconfirmedEmailOf } from "./resend-verification";

const setup = setUpAuthDatabase();
const db = () => setup.db();

async function viewer(email: string, verified: boolean): Promise<SignedInViewer> {
  const { userId } = await createAccount(setup.auth, db(), { email, verified });
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
  (await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, address))).map((m) => m.kind);

describe("sending the confirmation link again", () => {
  it(`sends a new link at most ${RESEND_VERIFICATION_LIMIT.max} times an hour, then says to wait`, async () => {
    const sam = await viewer("unconfirmed@example.com", false);
    expect(await unconfirmedEmailOf(db(), sam.userId)).toBe("unconfirmed@example.com");
    const before = (await mailTo("unconfirmed@example.com")).length;
    for (let i = 0; i < RESEND_VERIFICATION_LIMIT.max; i++)
      expect(await resendVerification(db(), sam)).toEqual({ kind: "sent", email: "unconfirmed@example.com" });
    const limited = await resendVerification(db(), sam);
    expect(limited.kind).toBe("limited");
    const sent = await mailTo("unconfirmed@example.com");
    expect(sent.length - before).toBe(RESEND_VERIFICATION_LIMIT.max);
    expect(sent.every((t) => t === "account.verify-email")).toBe(true);
  });

  it("sends nothing to a confirmed address and hides the banner", async () => {
    const pat = await viewer("confirmed@example.com", true);
    expect(await unconfirmedEmailOf(db(), pat.userId)).toBeNull();
    const before = (await mailTo("confirmed@example.com")).length; // the sign-up email
    expect(await resendVerification(db(), pat)).toEqual({ kind: "confirmed" });
    expect(await mailTo("confirmed@example.com")).toHaveLength(before);
    const [row] = await db().select().from(users).where(eq(users.id, pat.userId));
    expect(row?.emailVerified).toBe(true);
  });
});
