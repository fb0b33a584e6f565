import { describe, expect, it } from "vitest";
import { cn } from "./cn";

describe("cn", () => {
  it("drops falsy parts and lets the later Tailwind class win a conflict", () => {
    expect(cn("px-4 py-2", false, undefined, { "font-bold": true, italic: false }, "px-6")).toBe("py-2 font-bold px-6");
  });

  it("knows the theme's brand colours are colours, so one replaces the other", () => {
    expect(cn("bg-brand-500 text-white", "bg-red-600")).toBe("text-white bg-red-600");
  });
});
