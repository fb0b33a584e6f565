import { randomUUID } from "node:crypto";
import sharp from "sharp";
import type { Role } from "../../domain/roles";
import type { ClaimFormInput } from "../../domain/claim-form";
import type { Database } from "../db/client";
import { locations, users } from "../db/schema";
import type { PrivateStore } from "../files/private-store";
import { SAMPLE_LOCATION } from "../locations/sample";
import type { Actor } from "../auth/actor";

/** Factories for claim tests (server and browser): listings, people, evidence files. */
export async function insertListing(db: Database, overrides: Partial<typeof locations.$inferInsert> = {}) {
  const id = overrides.placeId ?? `test_${randomUUID().slice(0, 12)}`;
  const row = {
    ...SAMPLE_LOCATION,
    placeId: id,
    slug: `test-rv-storage-${id.toLowerCase().replace(/[^a-z0-9]/g, "")}`,
    name: "Lakeside RV Storage",
    website: "https://www.lakesiderv.example/",
    phoneNumber: "(512) 555-0100",
    ...overrides,
  };
  await db.insert(locations).values(row);
  return row;
}

export async function insertPerson(
  db: Database,
  {
    role = "user",
    email,
    name = "Pat Claimant",
    createdAt,
    emailVerified = true,
  }: { role?: Role; email?: string; name?: string; createdAt?: Date; emailVerified?: boolean } = {},
): Promise<Actor> {
  const id = randomUUID();
  const address = email ?? `${id.slice(0, 8)}@example.com`;
  await db.insert(users).values({ id, email: address, name, role, emailVerified, ...(createdAt ? { createdAt } : {}) });
  return { userId: id, email: address, name, isAdmin: role === "admin" };
}

export const CLAIM_INPUT: ClaimFormInput = {
  claimantName: "Pat Claimant",
  claimantRole: "Owner",
  businessPhone: "512-555-0100",
  businessEmail: "pat@lakesiderv.example",
  message: "I own the facility since 2019.",
  consent: "on",
};

export const PDF_BYTES = new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

/** A Windows program's first bytes: what a renamed executable looks like to the content check. */
export function exeBytes(): Uint8Array {
  const mz = Buffer.alloc(512);
  mz.write("MZ", 0);
  mz.writeUInt32LE(128, 0x3c);
  mz.write("PE\0\0", 128, "binary");
  return new Uint8Array(mz);
}

export async function pngBytes(): Promise<Uint8Array> {
  const buffer = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#4668f2" } })
    .png()
    .toBuffer();
  return new Uint8Array(buffer);
}

/** A store in memory, counting what it holds. */
export function memoryStore(): PrivateStore & { files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  return {
    files,
    put: async (key, bytes) => void files.set(key, bytes),
    get: async (key) => files.get(key) ?? null,
    delete: async (key) => void files.delete(key),
  };
}
