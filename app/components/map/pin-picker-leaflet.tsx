/**
 * The administrator's pin (docs/product.md section 12): a Leaflet map with one draggable marker.
 * Only the browser loads this module (pin-picker.tsx imports it lazily). Dragging the pin, or
 * clicking the map, writes the position into the form's latitude and longitude inputs; typing in
 * those inputs moves the pin.
 */
import L from "leaflet";
import "leaflet/dist/leaflet.css";
import { useEffect, useRef } from "react";
import { PIN_HEIGHT, PIN_SVG, PIN_WIDTH } from "./map-marker-icon";
import { DEFAULT_CENTER, DEFAULT_ZOOM, DETAIL_ZOOM, MAX_ZOOM } from "./map-view";

export interface PinPickerMapProps {
  latInput: string;
  lngInput: string;
  tileUrl: string;
  attribution: string;
  label: string;
}

/** Six decimals: about 10 cm, finer than any pin drop. */
const fixed = (n: number) => n.toFixed(6);

function readPosition(latInput: HTMLInputElement, lngInput: HTMLInputElement): L.LatLng | null {
  const lat = Number(latInput.value.trim());
  const lng = Number(lngInput.value.trim());
  if (latInput.value.trim() === "" || lngInput.value.trim() === "") return null;
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return L.latLng(lat, lng);
}

export default function PinPickerMap({ latInput, lngInput, tileUrl, attribution, label }: PinPickerMapProps) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const lat = document.getElementById(latInput) as HTMLInputElement | null;
    const lng = document.getElementById(lngInput) as HTMLInputElement | null;
    if (!element.current || !lat || !lng) return;
    const start = readPosition(lat, lng);
    const map = L.map(element.current, { maxZoom: MAX_ZOOM, scrollWheelZoom: false }).setView(
      start ?? [DEFAULT_CENTER.lat, DEFAULT_CENTER.lng],
      start ? DETAIL_ZOOM : DEFAULT_ZOOM,
    );
    map.getContainer().style.background = "#f1f5f9";
    if (tileUrl) L.tileLayer(tileUrl, { attribution, maxZoom: MAX_ZOOM }).addTo(map);
    const icon = L.divIcon({
      html: PIN_SVG,
      className: "rv-map-pin",
      iconSize: [PIN_WIDTH, PIN_HEIGHT],
      iconAnchor: [PIN_WIDTH / 2, PIN_HEIGHT - 1],
    });
    const marker = L.marker(start ?? map.getCenter(), {
      draggable: true,
      icon,
      keyboard: true,
      title: "Drag to the facility's entrance",
      alt: "Listing position",
    });
    if (start) marker.addTo(map);
    const write = (at: L.LatLng) => {
      const wrapped = at.wrap();
      lat.value = fixed(wrapped.lat);
      lng.value = fixed(wrapped.lng);
      // Let anything listening (the form's own state) know, as typing would.
      lat.dispatchEvent(new Event("input", { bubbles: true }));
      lng.dispatchEvent(new Event("input", { bubbles: true }));
    };
    marker.on("dragend", () => write(marker.getLatLng()));
    map.on("click", (e: L.LeafletMouseEvent) => {
      marker.setLatLng(e.latlng);
      if (!map.hasLayer(marker)) marker.addTo(map);
      write(e.latlng);
    });
    const follow = () => {
      const at = readPosition(lat, lng);
      if (!at) return;
      marker.setLatLng(at);
      if (!map.hasLayer(marker)) marker.addTo(map);
      map.panTo(at);
    };
    lat.addEventListener("change", follow);
    lng.addEventListener("change", follow);
    return () => {
      lat.removeEventListener("change", follow);
      lng.removeEventListener("change", follow);
      map.remove();
    };
  }, [latInput, lngInput, tileUrl, attribution]);
  return <div ref={element} role="application" aria-label={label} className="h-full w-full" />;
}
