/** A storage size offered by a facility, in feet. */
export interface Dimension {
  width: number;
  length: number;
}

/** One review, parsed from '[author] Rating: N (time) - text'. */
export interface Review {
  author: string;
  rating: number;
  relativeTime: string;
  text: string;
}

export interface Viewport {
  low: { latitude: number; longitude: number };
  high: { latitude: number; longitude: number };
}
