import ChevronLeft from "lucide-react/icons/chevron-left";
import ChevronRight from "lucide-react/icons/chevron-right";
import Maximize2 from "lucide-react/icons/maximize-2";
import { Suspense, lazy, useCallback, useRef, useState, type KeyboardEvent } from "react";
import { hiddenPhotoCount, MAX_THUMBNAILS, wrapIndex } from "../../lib/gallery";
import type { ImageRef } from "../../../domain/images";
import { ResponsivePhoto, Thumbnail } from "./responsive-photo";
import { stepOnArrowKey, useSwipe } from "./use-swipe";

const loadFullScreen = () => import("./photo-full-screen");
const PhotoFullScreen = lazy(loadFullScreen);
/** Fetch the full-screen view as soon as a visitor points at a way to open it. */
const warmFullScreen = () => void loadFullScreen();

/**
 * The facility's photos (docs/product.md section 4, "Gallery"): a main photo shown whole in a 4:3
 * frame, with previous/next arrows, the left/right keys and swipes (all wrapping around), up to 14
 * thumbnails then '+N more photos', and a full-screen view opened by the photo itself or its button.
 */
export function PhotoGallery({ photos, name }: { photos: readonly ImageRef[]; name: string }) {
  const [index, setIndex] = useState(0);
  const [fullScreen, setFullScreen] = useState(false);
  /** What opened the full-screen view, to give focus back to when it closes. */
  const opener = useRef<HTMLElement | null>(null);
  const fullScreenButton = useRef<HTMLButtonElement>(null);
  const count = photos.length;
  const step = useCallback((delta: number) => setIndex((i) => wrapIndex(i, delta, count)), [count]);
  const openFullScreen = (from: HTMLElement | null) => {
    opener.current = from;
    setFullScreen(true);
  };
  const swipe = useSwipe(step, () => openFullScreen(fullScreenButton.current));
  if (count === 0) {
    return (
      <div className="flex aspect-[4/3] max-h-[75dvh] w-full items-center justify-center rounded-card bg-slate-100 text-slate-600">
        No photos available
      </div>
    );
  }
  const current = photos[index]!;
  const onKeyDown = (event: KeyboardEvent) => stepOnArrowKey(event, step);
  const label = (i: number) => `${name}, photo ${i + 1} of ${count}`;
  const arrows =
    count > 1 ? (
      <>
        <button
          type="button"
          onClick={() => step(-1)}
          aria-label="Previous photo"
          className="absolute left-2 top-1/2 flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-white/90 text-slate-900 shadow hover:bg-white"
        >
          <ChevronLeft className="size-5" aria-hidden="true" />
        </button>
        <button
          type="button"
          onClick={() => step(1)}
          aria-label="Next photo"
          className="absolute right-2 top-1/2 flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-white/90 text-slate-900 shadow hover:bg-white"
        >
          <ChevronRight className="size-5" aria-hidden="true" />
        </button>
      </>
    ) : null;

  return (
    <section aria-label="Photos" aria-roledescription="carousel" onKeyDown={onKeyDown}>
      <div className="relative overflow-hidden rounded-card bg-slate-100">
        {/* Not a focus stop of its own: 'View full screen' is the keyboard's way to the same view. */}
        <div
          {...swipe}
          onPointerEnter={warmFullScreen}
          className="aspect-[4/3] max-h-[75dvh] w-full cursor-zoom-in touch-pan-y select-none"
          data-testid="gallery-photo"
        >
          <ResponsivePhoto
            key={`${current.placeId}-${current.index}`}
            placeId={current.placeId}
            index={current.index}
            alt={label(index)}
            width={1280}
            height={960}
            sizes="(min-width: 1024px) 800px, 100vw"
            priority={index === 0}
            preload={false}
            fit="contain"
          />
        </div>
        {arrows}
        <button
          ref={fullScreenButton}
          type="button"
          onClick={(e) => openFullScreen(e.currentTarget)}
          onPointerEnter={warmFullScreen}
          onFocus={warmFullScreen}
          aria-label="View full screen"
          className="absolute right-2 top-2 flex size-11 items-center justify-center rounded-md bg-white/90 text-slate-900 shadow hover:bg-white"
        >
          <Maximize2 className="size-4" aria-hidden="true" />
        </button>
        <p
          aria-live="polite"
          className="absolute bottom-2 left-2 rounded bg-slate-900/70 px-2 py-0.5 text-sm text-white"
        >
          {index + 1} / {count}
        </p>
      </div>
      {count > 1 && (
        <ul className="mt-2 grid grid-cols-5 gap-2 sm:grid-cols-8" aria-label="Thumbnails">
          {photos.slice(0, MAX_THUMBNAILS + 1).map((photo, i) => (
            <li key={`${photo.placeId}-${photo.index}`}>
              <button
                type="button"
                onClick={() => setIndex(i)}
                aria-label={`Show photo ${i + 1}`}
                aria-current={i === index ? "true" : undefined}
                className={`block w-full overflow-hidden rounded-md ring-offset-2 ${i === index ? "ring-2 ring-brand-500" : ""}`}
              >
                <Thumbnail placeId={photo.placeId} index={photo.index} alt="" />
              </button>
            </li>
          ))}
          {hiddenPhotoCount(count) > 0 && (
            <li className="flex items-center justify-center rounded-md bg-slate-100 text-sm font-medium text-slate-700">
              <button
                type="button"
                onClick={(e) => openFullScreen(e.currentTarget)}
                onPointerEnter={warmFullScreen}
                onFocus={warmFullScreen}
                className="h-full w-full p-1"
              >
                +{hiddenPhotoCount(count)} more photos
              </button>
            </li>
          )}
        </ul>
      )}
      {fullScreen && (
        <Suspense fallback={null}>
          <PhotoFullScreen
            photo={current}
            label={label(index)}
            position={`${index + 1} / ${count}`}
            arrows={arrows}
            onStep={step}
            onClose={() => setFullScreen(false)}
            returnFocusTo={() => (opener.current?.isConnected ? opener.current : fullScreenButton.current)}
          />
        </Suspense>
      )}
    </section>
  );
}
