import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { passwordStrength } from "./password-strength";

const level = (password: string) => passwordStrength(password).level;

describe("passwordStrength", () => {
  it("says nothing for an empty field and counts what a short one lacks", () => {
    expect(passwordStrength("")).toEqual({ level: "empty", score: 0, label: "", tip: "" });
    expect(passwordStrength("abc")).toMatchObject({
      level: "too-short",
      label: "Too short",
      tip: "Use at least 8 characters.",
    });
    // Characters, not UTF-16 units: an emoji counts once.
    expect(passwordStrength("🚐🚐🚐🚐🚐🚐🚐").level).toBe("too-short");
  });

  it("calls common passwords and patterns weak whatever their length", () => {
    for (const password of [
      "password",
      "Password1",
      "P@ssw0rd!",
      "12345678",
      "qwertyuiop",
      "abcd1234",
      "aaaaaaaaaaaaaaaaaaaa",
      "abababababababab",
      "987654321",
      "zyxwvuts",
      "RVStorageFinder",
    ]) {
      expect(level(password), password).toBe("weak");
    }
  });

  it("ranks by length first, then by the kinds of characters", () => {
    expect(level("hammocks")).toBe("weak");
    expect(level("Summer2026!")).toBe("fair");
    expect(level("correcthorse")).toBe("fair");
    expect(level("correct horse")).toBe("fair");
    expect(level("correcthorsebattery")).toBe("good");
    expect(level("correct horse battery staple")).toBe("strong");
    expect(level("Tr0ub4dor&3xyz")).toBe("good");
    expect(level("Correct-Horse-Battery")).toBe("strong");
  });

  it("gives a next step until the password is strong", () => {
    expect(passwordStrength("hammocks").tip).toMatch(/longer/i);
    expect(passwordStrength("correcthorse").tip).toMatch(/another word/);
    expect(passwordStrength("correct horse battery staple").tip).toBe("");
  });

  it("never lowers the level when a character is added to a long enough password", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 8, maxLength: 40 }), fc.constantFrom("x", "7", "#", "Q"), (base, extra) => {
        const before = passwordStrength(base);
        const after = passwordStrength(base + extra + base);
        if (before.level !== "weak") expect(after.score).toBeGreaterThanOrEqual(before.score);
      }),
    );
  });
});
