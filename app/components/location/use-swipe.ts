import { useRef, type PointerEvent } from "react";
import { swipeStep } from "../../lib/gallery";

/**
 * Swipes and taps on a photo, with pointer events (finger, pen or mouse): a horizontal move of
 * SWIPE_MIN_PX or more steps, anything shorter is a tap. The element needs `touch-action: pan-y`,
 * so that the browser leaves horizontal moves to us and still scrolls the page vertically.
 */
export function useSwipe(step: (delta: number) => void, onTap?: () => void) {
  const start = useRef<{ x: number; y: number; id: number } | null>(null);
  /** The click that follows a swipe's pointerup is not a tap. */
  const swiped = useRef(false);
  return {
    onPointerDown: (e: PointerEvent) => {
      if (e.pointerType === "mouse" && e.button !== 0) return;
      start.current = { x: e.clientX, y: e.clientY, id: e.pointerId };
      swiped.current = false;
    },
    onPointerUp: (e: PointerEvent) => {
      const from = start.current;
      start.current = null;
      if (!from || from.id !== e.pointerId) return;
      const delta = swipeStep(e.clientX - from.x, e.clientY - from.y);
      if (delta !== 0) {
        swiped.current = true;
        step(delta);
      }
    },
    onPointerCancel: () => {
      start.current = null;
    },
    onClick: () => {
      if (swiped.current) swiped.current = false;
      else onTap?.();
    },
  };
}

/**
 * Left and right arrow keys page a gallery by one photo: true when the key was one of them (the
 * event is then handled and its default prevented).
 */
export function stepOnArrowKey(event: { key: string; preventDefault(): void }, step: (delta: number) => void): boolean {
  if (event.key === "ArrowLeft") step(-1);
  else if (event.key === "ArrowRight") step(1);
  else return false;
  event.preventDefault();
  return true;
}
