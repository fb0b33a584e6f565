import { describe, expect, it } from "vitest";
import { movedOrder } from "./photo-pages";

describe("movedOrder (the move buttons without JavaScript)", () => {
  const order = ["/a.jpg", "/b.jpg", "/c.jpg"];
  it("moves a photo first, earlier or later", () => {
    expect(movedOrder(order, "/c.jpg|first")).toEqual(["/c.jpg", "/a.jpg", "/b.jpg"]);
    expect(movedOrder(order, "/b.jpg|up")).toEqual(["/b.jpg", "/a.jpg", "/c.jpg"]);
    expect(movedOrder(order, "/b.jpg|down")).toEqual(["/a.jpg", "/c.jpg", "/b.jpg"]);
  });
  it("keeps the order for a move past an end, an unknown photo or direction, or no move", () => {
    for (const move of ["/a.jpg|up", "/c.jpg|down", "/x.jpg|first", "/a.jpg|sideways", "nonsense", null])
      expect(movedOrder(order, move)).toEqual(order);
  });
});
