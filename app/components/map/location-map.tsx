/**
 * A facility's location map: the results map's frame, states and lazily loaded Leaflet chunk,
 * fixed at zoom 15 on the facility's one pin. Like the results map it renders a placeholder on
 * the server, reserves its box (no layout shift), and loads Leaflet only once it is near the
 * viewport, so the facility page's first load does not pay for it.
 */
import { useMemo } from "react";
import { DETAIL_ZOOM, googleMapsUrl, type MapMarker, type MapView } from "./map-view";
import { ResultsMap } from "./results-map";

export interface LocationMapProps {
  id: string;
  name: string;
  lat: number;
  lng: number;
  /** The listing's own Google Maps link, preferred for 'Open in Google Maps' when usable. */
  googleMapsUri?: string | null;
  tileUrl: string;
  attribution: string;
  className?: string;
}

export function LocationMap({ id, name, lat, lng, googleMapsUri, tileUrl, attribution, className }: LocationMapProps) {
  const markers = useMemo<MapMarker[]>(
    () => [{ id, lat, lng, name, rating: null, reviewCount: 0, href: "" }],
    [id, lat, lng, name],
  );
  const view: MapView = { kind: "center", center: { lat, lng }, zoom: DETAIL_ZOOM };
  return (
    <ResultsMap
      markers={markers}
      fixedView={view}
      label={`Map of the location of ${name}`}
      tileUrl={tileUrl}
      attribution={attribution}
      className={className}
      headingLevel={3}
      fallback={{
        message: "The map could not be loaded here.",
        link: { href: googleMapsUrl({ lat, lng }, googleMapsUri), text: "Open in Google Maps" },
      }}
    />
  );
}
