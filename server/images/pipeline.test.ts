import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { IMAGE_FORMATS, IMAGE_WIDTHS } from "../../domain/images";
import { renderDemoPhoto } from "../locations/demo-photo";
import {
  ImageRejectedError,
  MAX_INPUT_BYTES,
  prepareImage,
  processImage,
  renderVariant,
  type ImageVariant,
} from "./pipeline";

const fixture = (name: string) => fs.readFileSync(path.resolve("tests/fixtures/images", name));

/** What the bytes really are, by their first bytes (not by what the pipeline claims). */
function sniffFormat(bytes: Uint8Array): string | undefined {
  const buffer = Buffer.from(bytes);
  if (buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[2] === 0xff) return "jpg";
  if (buffer.toString("latin1", 0, 4) === "RIFF" && buffer.toString("latin1", 8, 12) === "WEBP") return "webp";
  if (buffer.toString("latin1", 4, 8) === "ftyp" && /^avi[fs]$/.test(buffer.toString("latin1", 8, 12))) return "avif";
  return undefined;
}

/** A PNG that claims its size but holds (almost) no pixel data: cheap to make at any size. */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, no interlace
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const idat = chunk("IDAT", zlib.deflateSync(Buffer.alloc(0)));
  return Buffer.concat([signature, chunk("IHDR", ihdr), idat, chunk("IEND", Buffer.alloc(0))]);
}

async function rejection(input: Uint8Array): Promise<ImageRejectedError> {
  const error: unknown = await processImage(input).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ImageRejectedError)) throw new Error(`expected a rejection, got ${String(error)}`);
  return error;
}

function variant(variants: ImageVariant[], width: number, format: string): ImageVariant {
  const found = variants.find((v) => v.width === width && v.format === format);
  if (!found) throw new Error(`no ${width} ${format}`);
  return found;
}

describe("processImage", () => {
  it("turns a 1600x1000 PNG into 12 files of the right type, width and aspect ratio", async () => {
    const result = await processImage(fixture("landscape.png"));
    expect(result).toMatchObject({ sourceFormat: "png", sourceWidth: 1600, sourceHeight: 1000 });
    expect(result.variants.map((v) => `w${v.width}.${v.format}`)).toEqual(
      IMAGE_WIDTHS.flatMap((w) => IMAGE_FORMATS.map((f) => `w${w}.${f}`)),
    );
    for (const v of result.variants) {
      expect(sniffFormat(v.bytes)).toBe(v.format);
      const meta = await sharp(v.bytes).metadata();
      expect(meta.format).toBe({ avif: "heif", webp: "webp", jpg: "jpeg" }[v.format]);
      expect([meta.width, meta.height]).toEqual([v.width, (v.width * 5) / 8]);
      expect([v.outputWidth, v.outputHeight]).toEqual([meta.width, meta.height]);
      expect(v.contentType).toBe({ avif: "image/avif", webp: "image/webp", jpg: "image/jpeg" }[v.format]);
    }
    expect(variant(result.variants, 1280, "jpg").bytes.length).toBeLessThan(200_000);
    const jpeg = await sharp(variant(result.variants, 960, "jpg").bytes).metadata();
    expect(jpeg.isProgressive).toBe(true);
  });

  it("applies EXIF orientation 6 and strips the metadata", async () => {
    const input = fixture("oriented-6.jpg");
    const before = await sharp(input).metadata();
    expect(before).toMatchObject({ width: 400, height: 300, orientation: 6 });
    expect(before.exif?.toString("latin1")).toContain("Fixture Camera Owner");

    const result = await processImage(input);
    expect([result.sourceWidth, result.sourceHeight]).toEqual([300, 400]);
    for (const v of result.variants) {
      const meta = await sharp(v.bytes).metadata();
      // Never upscaled: every slot holds the 300x400 original at most.
      expect([meta.width, meta.height]).toEqual(v.width <= 300 ? [v.width, (v.width * 4) / 3] : [300, 400]);
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(Buffer.from(v.bytes).toString("latin1")).not.toContain("Fixture Camera Owner");
    }
    // Stored left half red, right half blue; rotated 90° clockwise the red half is on top.
    const { data, info } = await sharp(variant(result.variants, 640, "jpg").bytes)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    const [topR = 0, , topB = 0] = pixel(150, 50);
    const [bottomR = 0, , bottomB = 0] = pixel(150, 350);
    expect(topR).toBeGreaterThan(180);
    expect(topB).toBeLessThan(80);
    expect(bottomB).toBeGreaterThan(180);
    expect(bottomR).toBeLessThan(80);
  });

  it("rasterises an SVG at the full 1280 px (demo photos are drawn at 640x480)", async () => {
    const result = await processImage(Buffer.from(renderDemoPhoto("demo_0001abcdefghij", 1)));
    expect(result.sourceFormat).toBe("svg");
    expect(result.variants.map((v) => [v.outputWidth, v.outputHeight])).toEqual(
      IMAGE_WIDTHS.flatMap((w) => IMAGE_FORMATS.map(() => [w, (w * 3) / 4])),
    );
  });

  it("makes one slot's file alone (renderVariant) exactly as it makes it among the twelve", async () => {
    const svg = Buffer.from(renderDemoPhoto("demo_0001abcdefghij", 2));
    const all = await processImage(svg);
    const prepared = await prepareImage(svg);
    for (const [width, format] of [
      [640, "avif"],
      [320, "jpg"],
      [1280, "webp"],
    ] as const) {
      const one = await renderVariant(prepared, width, format);
      const among = variant(all.variants, width, format);
      expect([one.outputWidth, one.outputHeight, one.contentType]).toEqual([
        among.outputWidth,
        among.outputHeight,
        among.contentType,
      ]);
      expect(one.bytes.equals(among.bytes)).toBe(true);
    }
  });

  it("flattens transparency onto white", async () => {
    const transparent = await sharp({
      create: { width: 64, height: 48, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const result = await processImage(transparent);
    const { data } = await sharp(variant(result.variants, 320, "jpg").bytes)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(Math.min(...data.subarray(0, 30))).toBeGreaterThan(240);
  });
});

describe("processImage rejects, with a reason", () => {
  it("a truncated JPEG (its header alone looks fine)", async () => {
    const input = fixture("truncated.jpg");
    expect((await sharp(input).metadata()).width).toBe(800);
    const error = await rejection(input);
    expect(error.code).toBe("corrupt");
    expect(error.message).toMatch(/^the image data is damaged or incomplete \(.*premature end/i);
  });

  it("a text file named .jpg", async () => {
    const error = await rejection(fixture("not-an-image.jpg"));
    expect(error.code).toBe("not-an-image");
    expect(error.message).toContain("not a readable image");
  });

  it("an empty file", async () => {
    expect((await rejection(Buffer.alloc(0))).code).toBe("empty");
  });

  it("a file over 25 MB, before decoding it", async () => {
    const error = await rejection(Buffer.alloc(MAX_INPUT_BYTES + 1));
    expect(error.code).toBe("too-large");
    expect(error.message).toBe("the file is 25.0 MB, over the 25.0 MB limit");
  });

  it("more than 40 megapixels, from the header alone", async () => {
    expect((await rejection(pngHeader(8000, 5000))).code).toBe("corrupt"); // exactly 40: size passes
    const error = await rejection(pngHeader(8000, 5001));
    expect(error.code).toBe("too-many-pixels");
    expect(error.message).toBe("8000x5001 is 40.0 megapixels, over the 40 megapixel limit");
  });
});
