/** The embedded US gazetteer (server-side). Pure helpers live in coordinates.ts, normalize.ts and states.ts. */
export type { LatLng } from "./coordinates";
export { EARTH_RADIUS_MILES, formatCoordinates, haversineMiles, isValidLatLng, parseCoordinates } from "./coordinates";
export type { Gazetteer, GazetteerData, Place, PlaceKind } from "./gazetteer";
export { DEFAULT_SUGGEST_LIMIT, createGazetteer } from "./gazetteer";
export { getGazetteer, loadGazetteer, readGazetteerData, resolveGazetteerDir } from "./load-gazetteer";
export { foldName } from "./normalize";
export type { UsState } from "./states";
export { STATES, resolveState, stateByCode, stateCodeFromName, stateNameFromCode } from "./states";
