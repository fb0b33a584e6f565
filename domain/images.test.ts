import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  IMAGE_FORMATS,
  IMAGE_WIDTHS,
  imageFileName,
  imageRefFromUrl,
  imageRefsFromUrls,
  isThumbnailFile,
  isValidPlaceId,
  parseImageFileName,
  placeImageUrl,
  srcSet,
  thumbnailUrl,
} from "./images";

const placeIds = fc.stringMatching(/^[A-Za-z0-9_-]{1,128}$/);
const indexes = fc.integer({ min: 1, max: 999 });
const widths = fc.constantFrom(...IMAGE_WIDTHS);
const formats = fc.constantFrom(...IMAGE_FORMATS);

describe("file names and URLs", () => {
  it("follow docs/product.md 7: w{width}n{index}.{format} under /place-images/{placeId}/", () => {
    expect(imageFileName(640, 2, "webp")).toBe("w640n2.webp");
    expect(placeImageUrl("ChIJabc_1-x", 3, 1280, "jpg")).toBe("/place-images/ChIJabc_1-x/w1280n3.jpg");
    expect(thumbnailUrl("p1", 1)).toBe("/place-images/p1/w320n1.avif");
  });

  it("builds a srcset of every width in one format", () => {
    expect(srcSet("p1", 2, "avif")).toBe(
      "/place-images/p1/w320n2.avif 320w, /place-images/p1/w640n2.avif 640w, " +
        "/place-images/p1/w960n2.avif 960w, /place-images/p1/w1280n2.avif 1280w",
    );
  });

  it("parses exactly the names it builds", () => {
    fc.assert(
      fc.property(widths, indexes, formats, (width, index, format) => {
        expect(parseImageFileName(imageFileName(width, index, format))).toEqual({ width, index, format });
      }),
    );
  });

  it.each(["w641n1.jpg", "w640n0.jpg", "w640n01.jpg", "w640n1000.jpg", "w640n1.jpeg", "w640n1.png", "w640n1.jpg.bak"])(
    "rejects %s",
    (name) => expect(parseImageFileName(name)).toBeUndefined(),
  );

  it("accepts only URL-safe place ids of 1 to 128 characters", () => {
    expect(isValidPlaceId("ChIJN1t_tDeuEmsRUsoyG83frY4")).toBe(true);
    expect(isValidPlaceId("demo_00a1bcdefghij")).toBe(true);
    for (const bad of ["", "a/b", "..", "a b", "é", "x".repeat(129)]) expect(isValidPlaceId(bad)).toBe(false);
  });
});

describe("isThumbnailFile (docs/product.md 5)", () => {
  it("needs both avif and w320 in the name", () => {
    expect(isThumbnailFile("w320n1.avif")).toBe(true);
    expect(isThumbnailFile("place-images/p/w320n12.avif")).toBe(true);
    expect(isThumbnailFile("w320n1.webp")).toBe(false);
    expect(isThumbnailFile("w640n1.avif")).toBe(false);
  });

  it("agrees with thumbnailUrl", () => {
    fc.assert(fc.property(placeIds, indexes, (placeId, index) => isThumbnailFile(thumbnailUrl(placeId, index))));
  });
});

describe("imageRefFromUrl", () => {
  it("round-trips every URL placeImageUrl builds", () => {
    fc.assert(
      fc.property(placeIds, indexes, widths, formats, (placeId, index, width, format) => {
        expect(imageRefFromUrl(placeImageUrl(placeId, index, width, format))).toEqual({ placeId, index });
      }),
    );
  });

  it("reads the legacy demo URLs", () => {
    expect(imageRefFromUrl("/demo-images/demo_00a1bcdefghij/3.svg")).toEqual({
      placeId: "demo_00a1bcdefghij",
      index: 3,
    });
  });

  it("reads absolute and percent-encoded object-storage URLs, ignoring the query", () => {
    expect(imageRefFromUrl("https://cdn.example.com/place-images/ChIJx/w960n4.webp?v=2#top")).toEqual({
      placeId: "ChIJx",
      index: 4,
    });
    expect(
      imageRefFromUrl("https://storage.example.com/v0/b/bucket/o/place-images%2FChIJx%2Fw1280n2.jpg?alt=media&token=t"),
    ).toEqual({ placeId: "ChIJx", index: 2 });
  });

  it.each([
    "",
    "https://example.com/photo.jpg",
    "/place-images/ChIJx/w1280n0.jpg",
    "/place-images/ChIJx/w1280n1.png",
    "/place-images/../w1280n1.jpg",
    "/place-images/a%2Fb/w320n1.avif",
    "/demo-images/demo_x/0.svg",
    "/demo-images/demo_x/100.svg",
    "%E0%A4%A",
  ])("ignores %j", (url) => expect(imageRefFromUrl(url)).toBeUndefined());

  it("never throws", () => {
    fc.assert(fc.property(fc.string(), (url) => void imageRefFromUrl(url)));
  });

  it("imageRefsFromUrls keeps the order and drops what it cannot read", () => {
    expect(
      imageRefsFromUrls([
        "/place-images/p/w1280n1.jpg",
        "https://elsewhere.example/x.jpg",
        "/demo-images/demo_q/2.svg",
      ]),
    ).toEqual([
      { placeId: "p", index: 1 },
      { placeId: "demo_q", index: 2 },
    ]);
  });
});
