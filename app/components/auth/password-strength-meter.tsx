import { clsx } from "clsx";
import { passwordStrength, type StrengthLevel } from "../../lib/password-strength";

const BAR: Record<StrengthLevel, string> = {
  empty: "bg-slate-200",
  "too-short": "bg-slate-200",
  weak: "bg-red-600",
  fair: "bg-amber-500",
  good: "bg-emerald-500",
  strong: "bg-emerald-700",
};

/**
 * The strength of the password being typed (app/lib/password-strength.ts), as four bars and a
 * word with a next step. Inline elements only, so it sits inside a field's hint paragraph and is
 * read with the field; the words are a polite live region, announced when the level changes.
 * Empty until the visitor types (and without JavaScript).
 */
export function PasswordStrengthMeter({ password }: { password: string }) {
  const strength = passwordStrength(password);
  return (
    <span className="mt-1.5 block" data-strength={strength.level}>
      {strength.level !== "empty" && (
        <span aria-hidden="true" className="flex gap-1">
          {[1, 2, 3, 4].map((step) => (
            <span
              key={step}
              className={clsx(
                "h-1.5 flex-1 rounded-full",
                step <= strength.score ? BAR[strength.level] : "bg-slate-200",
              )}
            />
          ))}
        </span>
      )}
      <span aria-live="polite" className="mt-1 block">
        {strength.label && (
          <>
            <span className="font-medium text-slate-800">Strength: {strength.label}.</span> {strength.tip}
          </>
        )}
      </span>
    </span>
  );
}
