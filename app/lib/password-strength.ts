/**
 * A password strength hint for the sign-up and reset-password forms: a few rules, small enough
 * for public pages (no dictionary library). It only advises: the server's rule stays 8 to 128
 * characters (docs/product.md section 8), so a 'Weak' password is still accepted.
 *
 * Length counts most (a passphrase of four words beats 'P@ssw0rd'); mixing kinds of characters
 * helps a little; a password on the short list of the most common ones, or made of one repeated
 * character or a run like 'abcd1234', is weak whatever its length.
 */

export const PASSWORD_MIN = 8;

export type StrengthLevel = "empty" | "too-short" | "weak" | "fair" | "good" | "strong";

export interface PasswordStrength {
  level: StrengthLevel;
  /** 0 to 4, for a meter; 0 for empty and too short. */
  score: number;
  /** 'Too short', 'Weak', 'Fair', 'Good', 'Strong'; empty for an empty field. */
  label: string;
  /** One next step, or empty when there is nothing to add. */
  tip: string;
}

/** The most used passwords of 8 or more characters (public breach lists), lower case. */
const COMMON = new Set([
  "password",
  "password1",
  "password12",
  "password123",
  "passw0rd",
  "p@ssw0rd",
  "12345678",
  "123456789",
  "1234567890",
  "0123456789",
  "87654321",
  "11111111",
  "00000000",
  "qwertyui",
  "qwertyuiop",
  "qwerty123",
  "qwerty12",
  "1q2w3e4r",
  "1q2w3e4r5t",
  "asdfghjk",
  "asdfghjkl",
  "zxcvbnm1",
  "iloveyou",
  "iloveyou1",
  "sunshine",
  "princess",
  "football",
  "baseball",
  "welcome1",
  "welcome123",
  "letmein1",
  "trustno1",
  "superman",
  "abc12345",
  "abcd1234",
  "aa123456",
  "admin123",
  "changeme",
  "whatever",
  "starwars",
  "computer",
  "michelle",
  "jennifer",
  "corvette",
  "mustang1",
  "dragon12",
  "monkey12",
  "shadow12",
  "master12",
  "internet",
  "rvstorage",
  "rvstoragefinder",
]);

const SEQUENCES = ["abcdefghijklmnopqrstuvwxyz", "0123456789", "qwertyuiop", "asdfghjkl", "zxcvbnm"];

/** Made only of one character repeated, or of steps along the alphabet, the digits or a keyboard row. */
function isPattern(value: string): boolean {
  const lower = value.toLowerCase();
  if (new Set(lower).size <= 2) return true;
  // Split into letters and digits ('abcd1234'): each part must be a run of a sequence (either way).
  const parts = lower.match(/[a-z]+|[0-9]+|[^a-z0-9]+/g) ?? [];
  return parts.every(
    (part) =>
      part.length >= 3 && SEQUENCES.some((seq) => seq.includes(part) || seq.includes([...part].reverse().join(""))),
  );
}

function kinds(value: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(value)).length;
}

const LABELS: Record<StrengthLevel, string> = {
  empty: "",
  "too-short": "Too short",
  weak: "Weak",
  fair: "Fair",
  good: "Good",
  strong: "Strong",
};

function result(level: StrengthLevel, tip: string): PasswordStrength {
  const score = { empty: 0, "too-short": 0, weak: 1, fair: 2, good: 3, strong: 4 }[level];
  return { level, score, label: LABELS[level], tip };
}

export function passwordStrength(password: string): PasswordStrength {
  if (password.length === 0) return result("empty", "");
  const length = [...password].length;
  if (length < PASSWORD_MIN) {
    // The same words at every keystroke, so a screen reader announces it once, not per letter.
    return result("too-short", `Use at least ${PASSWORD_MIN} characters.`);
  }
  const lower = password.toLowerCase();
  if (COMMON.has(lower) || COMMON.has(lower.replace(/[^a-z0-9@]/g, "")) || isPattern(password)) {
    return result("weak", "This one is easy to guess: try a few unrelated words.");
  }
  const mixed = kinds(password);
  const points = (length >= 12 ? 1 : 0) + (length >= 16 ? 1 : 0) + (length >= 20 ? 1 : 0) + (mixed >= 3 ? 1 : 0);
  if (points >= 3) return result("strong", "");
  if (points === 2) return result("good", length < 16 ? "Longer is stronger: add another word." : "");
  if (points === 1) return result("fair", "Add another word or two to make it stronger.");
  return result("weak", "Make it longer: a few unrelated words work well.");
}
