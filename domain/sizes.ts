/** The size filter options of docs/product.md section 5, as width x length in feet. */
export const SIZE_OPTIONS_LIST = [
  "10x10",
  "10x15",
  "10x20",
  "10x25",
  "10x30",
  "12x20",
  "12x25",
  "12x30",
  "15x20",
  "15x30",
  "20x20",
  "20x25",
  "20x30",
  "20x40",
] as const;

export type SizeOption = (typeof SIZE_OPTIONS_LIST)[number];

export function sizeOptionDimensions(option: SizeOption): { width: number; length: number } {
  const [width, length] = option.split("x").map(Number);
  return { width: width!, length: length! };
}
