import { describe, expect, it } from "vitest";
import { displayFileName } from "./evidence";
import { computeSignals, domainsMatch, phonesMatch, websiteHost } from "./signals";

describe("claim signals", () => {
  it("reads the website's host without www and matches email domains and subdomains", () => {
    expect(websiteHost("https://www.LakesideRV.example/storage?x=1")).toBe("lakesiderv.example");
    expect(websiteHost("lakesiderv.example")).toBe("lakesiderv.example");
    expect(websiteHost("not a url at all")).toBeNull();
    expect(domainsMatch("lakesiderv.example", "lakesiderv.example")).toBe(true);
    expect(domainsMatch("mail.lakesiderv.example", "lakesiderv.example")).toBe(true);
    expect(domainsMatch("lakesiderv.example.evil.test", "lakesiderv.example")).toBe(false);
    expect(domainsMatch("notlakesiderv.example", "lakesiderv.example")).toBe(false);
  });

  it("compares phones as US numbers, whatever their spelling", () => {
    expect(phonesMatch("512-555-0100", "(512) 555-0100")).toBe(true);
    expect(phonesMatch("+1 512 555 0100", "5125550100")).toBe(true);
    expect(phonesMatch("512-555-0101", "(512) 555-0100")).toBe(false);
    expect(phonesMatch("512-555-0100", null)).toBe(false);
  });

  it("flags free-mail providers and counts the account's age in whole days", () => {
    const signals = computeSignals({
      businessEmail: "owner@gmail.com",
      businessPhone: "512-555-0100",
      listingWebsite: null,
      listingPhones: [null],
      accountCreatedAt: new Date("2026-01-01T00:00:00Z"),
      otherClaims: { pending: 1, approved: 0, rejected: 2, withdrawn: 0 },
      now: new Date("2026-01-11T12:00:00Z"),
    });
    expect(signals).toMatchObject({ freeMailProvider: true, emailMatchesWebsite: false, accountAgeDays: 10 });
  });

  it("keeps only a safe last piece of an uploaded file's name", () => {
    expect(displayFileName("C:\\Users\\pat\\licence.pdf")).toBe("licence.pdf");
    expect(displayFileName("../../etc/passwd")).toBe("passwd");
    expect(displayFileName('a"<b>\u0000.png')).toBe("ab.png");
    expect(displayFileName("")).toBe("evidence");
    expect(displayFileName(`${"x".repeat(300)}.pdf`)).toHaveLength(120);
  });
});
