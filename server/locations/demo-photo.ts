import { createRandom, type Random } from "./random";

/**
 * Drawn demo photos: simple scenes of parked RVs, canopies and gates in a few colour schemes,
 * generated from the place id and photo number so each listing always shows the same pictures.
 * They are SVG (a few kB each) so the demo needs no image files and fetches nothing.
 */
const SCHEMES = [
  { sky: ["#8ec5ff", "#e0f0ff"], ground: "#c9b48a", hills: "#7aa36b" },
  { sky: ["#ff9a62", "#ffd9a0"], ground: "#b59a72", hills: "#8a6f5a" },
  { sky: ["#4b6cb7", "#a9c4f5"], ground: "#9fa38a", hills: "#5d7a5a" },
  { sky: ["#bfe3f2", "#f4fbff"], ground: "#d8cfb8", hills: "#a7b8a0" },
] as const;
const BODY_COLOURS = ["#ffffff", "#f2efe6", "#e8edf5", "#f7f3ea"];
const STRIPES = ["#4668f2", "#c0392b", "#2d8f6f", "#8e5ad6", "#d9822b", "#34495e"];

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function rv(r: Random, x: number, y: number, scale: number): string {
  const body = r.pick(BODY_COLOURS);
  const stripe = r.pick(STRIPES);
  const w = 150 * scale;
  const h = 62 * scale;
  const wheel = 9 * scale;
  return `<g>
<rect x="${x}" y="${y - h}" width="${w}" height="${h}" rx="${8 * scale}" fill="${body}" stroke="#5b6474" stroke-width="${1.5 * scale}"/>
<rect x="${x}" y="${y - h * 0.45}" width="${w}" height="${h * 0.12}" fill="${stripe}"/>
<rect x="${x + w * 0.08}" y="${y - h * 0.82}" width="${w * 0.18}" height="${h * 0.25}" rx="${2 * scale}" fill="#9fb4cc"/>
<rect x="${x + w * 0.34}" y="${y - h * 0.82}" width="${w * 0.18}" height="${h * 0.25}" rx="${2 * scale}" fill="#9fb4cc"/>
<rect x="${x + w * 0.62}" y="${y - h * 0.85}" width="${w * 0.12}" height="${h * 0.6}" rx="${2 * scale}" fill="#d5dbe3" stroke="#5b6474" stroke-width="${scale}"/>
<rect x="${x + w * 0.84}" y="${y - h * 0.82}" width="${w * 0.14}" height="${h * 0.3}" rx="${2 * scale}" fill="#9fb4cc"/>
<circle cx="${x + w * 0.2}" cy="${y}" r="${wheel}" fill="#2b2f36"/><circle cx="${x + w * 0.2}" cy="${y}" r="${wheel * 0.45}" fill="#aab2bd"/>
<circle cx="${x + w * 0.78}" cy="${y}" r="${wheel}" fill="#2b2f36"/><circle cx="${x + w * 0.78}" cy="${y}" r="${wheel * 0.45}" fill="#aab2bd"/>
</g>`;
}

function canopy(x: number, y: number, width: number, colour: string): string {
  const posts = Array.from({ length: Math.floor(width / 120) + 1 }, (_, i) => x + i * 120)
    .map((px) => `<rect x="${px}" y="${y}" width="6" height="${470 - y}" fill="#6b7280"/>`)
    .join("");
  return `<polygon points="${x - 20},${y} ${x + width + 20},${y} ${x + width},${y - 30} ${x},${y - 30}" fill="${colour}"/>${posts}`;
}

function fence(y: number): string {
  const posts = Array.from(
    { length: 33 },
    (_, i) => `<line x1="${i * 20}" y1="${y}" x2="${i * 20}" y2="${y - 40}" stroke="#7b8491" stroke-width="2"/>`,
  ).join("");
  return `<g>${posts}<line x1="0" y1="${y - 38}" x2="640" y2="${y - 38}" stroke="#7b8491" stroke-width="2"/><line x1="0" y1="${y - 20}" x2="640" y2="${y - 20}" stroke="#9aa1ab" stroke-width="1"/></g>`;
}

export function renderDemoPhoto(placeId: string, index: number): string {
  const r = createRandom(hash(`${placeId}#${index}`));
  const scheme = r.pick(SCHEMES);
  const scene = (index + (hash(placeId) % 3)) % 3;
  let content = "";
  if (scene === 0) {
    content += canopy(40, 290, 560, r.pick(["#8a9099", "#a0522d", "#4a5d73"]));
    for (let i = 0; i < 3; i++) content += rv(r, 60 + i * 185, 450, 1);
  } else if (scene === 1) {
    content += fence(420);
    content += `<rect x="250" y="340" width="140" height="90" fill="none" stroke="#4b5563" stroke-width="5"/><line x1="320" y1="340" x2="320" y2="430" stroke="#4b5563" stroke-width="3"/><rect x="395" y="360" width="22" height="34" rx="3" fill="#374151"/><rect x="400" y="366" width="12" height="8" fill="#34d399"/>`;
    content += rv(r, 40, 460, 0.8) + rv(r, 470, 460, 0.8);
  } else {
    content += rv(r, 90, 440, 2.7);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 480" width="640" height="480">
<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${scheme.sky[0]}"/><stop offset="1" stop-color="${scheme.sky[1]}"/></linearGradient></defs>
<rect width="640" height="480" fill="url(#s)"/>
<path d="M0 300 Q 120 ${220 + r.int(0, 40)} 260 290 T 640 ${260 + r.int(0, 30)} V 480 H 0 Z" fill="${scheme.hills}"/>
<rect y="330" width="640" height="150" fill="${scheme.ground}"/>
${content}
</svg>`;
}
