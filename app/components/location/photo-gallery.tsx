import { ChevronLeft, ChevronRight, Maximize2 } from "lucide-react";
import { Suspense, lazy, useState, type KeyboardEvent } from "react";
import { hiddenPhotoCount, MAX_THUMBNAILS, wrapIndex } from "../../lib/gallery";
import type { ImageRef } from "../../lib/images";
import { ResponsivePhoto, Thumbnail } from "./responsive-photo";

const loadFullScreen = () => import("./photo-full-screen");
const PhotoFullScreen = lazy(loadFullScreen);
/** Fetch the full-screen view as soon as a visitor points at a way to open it. */
const warmFullScreen = () => void loadFullScreen();

/**
 * The facility's photos: a main photo with previous/next arrows (wrapping around, also on the
 * left/right keys), up to 14 thumbnails then '+N more photos', and a full-screen view.
 */
export function PhotoGallery({ photos, name }: { photos: readonly ImageRef[]; name: string }) {
  const [index, setIndex] = useState(0);
  const [fullScreen, setFullScreen] = useState(false);
  const count = photos.length;
  if (count === 0) {
    return (
      <div className="flex aspect-[16/9] items-center justify-center rounded-card bg-slate-100 text-slate-600">
        No photos available
      </div>
    );
  }
  const current = photos[index]!;
  const step = (delta: number) => setIndex((i) => wrapIndex(i, delta, count));
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowLeft") step(-1);
    else if (event.key === "ArrowRight") step(1);
    else return;
    event.preventDefault();
  };
  const label = (i: number) => `${name}, photo ${i + 1} of ${count}`;
  const arrows = (size: string) =>
    count > 1 && (
      <>
        <button
          type="button"
          onClick={() => step(-1)}
          aria-label="Previous photo"
          className={`absolute left-2 top-1/2 -translate-y-1/2 rounded-full bg-white/90 p-2 text-slate-900 shadow hover:bg-white ${size}`}
        >
          <ChevronLeft className="size-5" aria-hidden="true" />
        </button>
        <button
          type="button"
          onClick={() => step(1)}
          aria-label="Next photo"
          className={`absolute right-2 top-1/2 -translate-y-1/2 rounded-full bg-white/90 p-2 text-slate-900 shadow hover:bg-white ${size}`}
        >
          <ChevronRight className="size-5" aria-hidden="true" />
        </button>
      </>
    );

  return (
    <section aria-label="Photos" aria-roledescription="carousel" onKeyDown={onKeyDown}>
      <div className="relative overflow-hidden rounded-card">
        <ResponsivePhoto
          key={`${current.placeId}-${current.index}`}
          placeId={current.placeId}
          index={current.index}
          alt={label(index)}
          width={1280}
          height={720}
          sizes="(min-width: 1024px) 800px, 100vw"
          priority={index === 0}
          preload={false}
          className="aspect-[16/9] h-auto"
        />
        {arrows("")}
        <button
          type="button"
          onClick={() => setFullScreen(true)}
          onPointerEnter={warmFullScreen}
          onFocus={warmFullScreen}
          aria-label="View full screen"
          className="absolute right-2 top-2 rounded-md bg-white/90 p-2 text-slate-900 shadow hover:bg-white"
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
                onClick={() => setFullScreen(true)}
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
            arrows={arrows("")}
            onClose={() => setFullScreen(false)}
          />
        </Suspense>
      )}
    </section>
  );
}
