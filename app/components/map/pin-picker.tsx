import { Suspense, lazy } from "react";
import { useHydrated } from "./use-client-only";

const PinPickerMap = lazy(() => import("./pin-picker-leaflet"));

export interface PinPickerProps {
  /** The ids of the form's latitude and longitude inputs, which stay the source of truth. */
  latInput: string;
  lngInput: string;
  tileUrl: string;
  attribution: string;
}

/**
 * A map to set a listing's position by dragging its pin or clicking (docs/product.md section 12).
 * The coordinate inputs beside it keep working without it (and without JavaScript).
 */
export function PinPicker({ latInput, lngInput, tileUrl, attribution }: PinPickerProps) {
  const hydrated = useHydrated();
  return (
    <div className="mt-2">
      <div
        className="h-72 overflow-hidden rounded-lg border border-slate-200 bg-slate-100 sm:h-96"
        data-testid="pin-picker"
      >
        {hydrated && (
          <Suspense fallback={null}>
            <PinPickerMap
              latInput={latInput}
              lngInput={lngInput}
              tileUrl={tileUrl}
              attribution={attribution}
              label="Map: drag the pin or click to set the listing's position"
            />
          </Suspense>
        )}
      </div>
      <p className="mt-1 text-sm text-slate-600">Drag the pin, or click the map, to set the latitude and longitude.</p>
    </div>
  );
}
