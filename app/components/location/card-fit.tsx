import Check from "lucide-react/icons/check";
import TriangleAlert from "lucide-react/icons/triangle-exclamation-point";
import { clearsHeight, feetLabel, sizesThatFit, type MyRv } from "../../../domain/rv-fit";
import { formatNumber } from "../../lib/format";

/** What a card needs to say about price and fit (docs/product.md, "My RV" and "Prices"). */
export interface CardFitData {
  /** Its sizes as "WxL". */
  sizes?: readonly string[];
  /** The lowest owner price in whole dollars a month (of a space that fits, with an RV), or null. */
  priceFrom?: number | null;
  /** The covered and enclosed spaces' clearance in feet, or null when not stated. */
  clearanceFeet?: number | null;
  /** Whether it has covered parking or enclosed units, where a clearance matters. */
  coveredSpace?: boolean;
}

/** On a phone's list card, a fact and its shorter wording: only one of them is shown (and read). */
function PhoneShort({ list, short, long }: { list: boolean; short: string; long: string }) {
  if (!list) return long;
  return (
    <>
      <span className="sm:hidden">{short}</span>
      <span className="max-sm:hidden">{long}</span>
    </>
  );
}

/**
 * The card's lines for a visitor's decision: 'from $N/month' when the owner gives a price, and
 * with My RV set, which of its spaces fit and whether its covered spaces clear the RV. On a
 * phone's list card they share lines in shorter words, so two cards still fit on a screen.
 */
export function CardFit({
  location,
  rv,
  list = false,
}: {
  location: CardFitData;
  rv?: MyRv | undefined;
  /** A result list's card: compact on phones. */
  list?: boolean;
}) {
  const { priceFrom, sizes, clearanceFeet, coveredSpace } = location;
  const fitting = rv && sizes ? sizesThatFit(sizes, rv) : [];
  const clears = rv ? clearsHeight(clearanceFeet, rv) : undefined;
  const showClearance =
    rv !== undefined && coveredSpace === true && (rv.heightFeet !== undefined || clearanceFeet != null);
  if (priceFrom == null && !rv) return null;
  return (
    <div
      className={`flex flex-col gap-1 text-sm ${list ? "max-sm:flex-row max-sm:flex-wrap max-sm:gap-x-3 max-sm:gap-y-0.5" : ""}`}
    >
      {priceFrom != null && (
        <p className="font-semibold text-slate-900">
          {list && (
            <span className="sm:hidden">
              ${formatNumber(priceFrom)}
              <span className="font-normal text-slate-600">/mo</span>
            </span>
          )}
          <span className={list ? "max-sm:hidden" : undefined}>
            from ${formatNumber(priceFrom)}
            <span className="font-normal text-slate-600">/month</span>
          </span>
        </p>
      )}
      {rv && sizes && (
        <p className={`flex items-start gap-1 ${fitting.length ? "text-emerald-800" : "text-slate-600"}`}>
          {fitting.length > 0 && <Check className="mt-0.5 size-4 shrink-0" aria-hidden="true" />}
          {fitting.length > 0 ? (
            <PhoneShort
              list={list}
              short={`Fits: ${fitting[0]}${fitting.length > 1 ? ` +${fitting.length - 1}` : ""}`}
              long={`Fits your ${feetLabel(rv.lengthFeet)} RV: ${fitting.join(", ")}`}
            />
          ) : (
            <PhoneShort
              list={list}
              short="No space fits"
              long={`No listed space fits your ${feetLabel(rv.lengthFeet)} RV`}
            />
          )}
        </p>
      )}
      {showClearance && (
        <p className={`flex items-start gap-1 ${clears === false ? "text-red-700" : "text-slate-700"}`}>
          {clears === false && <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />}
          {clearanceFeet == null ? (
            <PhoneShort list={list} short="Clearance not stated" long="Covered clearance not stated" />
          ) : clears === undefined ? (
            `Covered clearance ${feetLabel(clearanceFeet)}`
          ) : (
            <PhoneShort
              list={list}
              short={`Clearance ${feetLabel(clearanceFeet)}: ${clears ? "clears" : "too low"}`}
              long={
                clears
                  ? `Covered clearance ${feetLabel(clearanceFeet)}: clears your ${feetLabel(rv.heightFeet!)} RV`
                  : `Covered clearance ${feetLabel(clearanceFeet)}: too low for your ${feetLabel(rv.heightFeet!)} RV`
              }
            />
          )}
        </p>
      )}
    </div>
  );
}
