import type { EmblaOptionsType } from "embla-carousel";
import Fade from "embla-carousel-fade";
import useEmblaCarousel from "embla-carousel-react";
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from "react";
import { ResponsivePhoto } from "~/components/ResponsivePhoto";
import type { PublicPhotos } from "~/wording/photo-types";
import { carousel, type carouselArt } from "~/wording";

/** The slides' drawn art and default captions, handed over by the home page's loader (not in the scripts). */
type CarouselArt = typeof carouselArt;
import { useAutoAdvance, useDocumentLoaded, useReducedMotion, useSwipe } from "./carousel/hooks";
import { NextIcon, PauseIcon, PlayIcon, PreviousIcon } from "./carousel/icons";

/**
 * Embla's `duration` is not in milliseconds. embla-carousel-fade 8.6.0 moves the incoming slide's opacity once per
 * rendered animation frame (velocity += (1 - opacity) / duration; velocity *= 0.68), so the fade lasts a number of
 * frames. Measured in Chromium 156, frames from the click until the slide's opacity is 1 (90 % in brackets):
 * duration 10 -> 11 (9), 15 -> 18 (13), 20 -> 32 (18), Embla's default 25 -> 47 (23). At 60 Hz, 15 gives
 * 18 x 16.7 ms = 300 ms, the spec's carousel.transitionMs (a 120 Hz screen halves it; the library has no ms option).
 */
const fadeDuration = 15;

const emblaOptions = {
  loop: true,
  duration: fadeDuration,
  // Embla's drag threshold is not a swipe distance: useSwipe measures the swipe itself.
  watchDrag: false,
  // Reduced motion: slides change at once instead of fading.
  breakpoints: { "(prefers-reduced-motion: reduce)": { duration: 0 } },
} satisfies EmblaOptionsType;

/**
 * How wide a slide is shown (Home: the carousel fills the content box below lg, three fifths of it beside the intro
 * from lg; the box is max-w-6xl with px-4, px-6 from sm, and a 2.5rem gap between the grid's five columns).
 */
const slideSizes =
  "(min-width: 1152px) 646px, (min-width: 992px) calc(60vw - 45px), (min-width: 576px) calc(100vw - 48px), calc(100vw - 32px)";

/** "auto" follows the visitor's motion preference; the rotation control sets it explicitly. */
type Rotation = "auto" | "on" | "off";

/** A round icon button laid over the image; `position` places it in the controls box. */
function RoundButton(props: {
  label: string;
  controls: string;
  onClick: () => void;
  position: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={props.onClick}
      aria-label={props.label}
      aria-controls={props.controls}
      className={`carousel-round-button absolute ${props.position}`}
    >
      {props.children}
    </button>
  );
}

/**
 * The home page's fading slide show (W3C ARIA carousel pattern). The server renders the first slide; after hydration
 * Embla stacks the slides in one box and the controls appear over the image, so nothing shifts. `photos`: the photos
 * and captions the site shows now, and each slide's drawn art, resolved on the server by the home page's loader.
 */
export function HeroCarousel({ photos }: { photos: Pick<PublicPhotos, "slides" | "captions"> & { art: CarouselArt } }) {
  const total = photos.art.length;
  const slidesId = useId();
  const reducedMotion = useReducedMotion();
  const loaded = useDocumentLoaded();
  const [plugins] = useState(() => [Fade()]);
  const [viewportRef, emblaApi] = useEmblaCarousel(emblaOptions, plugins);
  const [selected, setSelected] = useState(0);
  const [rotation, setRotation] = useState<Rotation>("auto");
  const [hovered, setHovered] = useState(false);
  const keyboardFocusInside = useRef(false);

  const rotationOn = rotation === "on" || (rotation === "auto" && !reducedMotion);
  // Only a live Embla rotates: without it (server, no JavaScript) the live region is polite.
  const rotating = Boolean(emblaApi) && rotationOn && !hovered;

  useEffect(() => {
    if (!emblaApi) return;
    const onSelect = () => setSelected(emblaApi.selectedScrollSnap());
    emblaApi.on("select", onSelect).on("reInit", onSelect);
    return () => {
      emblaApi.off("select", onSelect).off("reInit", onSelect);
    };
  }, [emblaApi]);

  // Hover, focus and the rotation control all decide whether it runs (see `rotating`).
  const restartRotation = useAutoAdvance(rotating, carousel.intervalMs, () => emblaApi?.scrollNext());

  const go = useCallback(
    (to: "previous" | "next" | number) => {
      if (!emblaApi) return;
      if (to === "previous") emblaApi.scrollPrev();
      else if (to === "next") emblaApi.scrollNext();
      else emblaApi.scrollTo(to);
      // A full interval after a manual change, so an automatic one never follows it at once.
      restartRotation();
    },
    [emblaApi, restartRotation],
  );

  const swipe = useSwipe(carousel.swipeThresholdPx, go);

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    event.preventDefault();
    go(event.key === "ArrowLeft" ? "previous" : "next");
  }

  // WCAG 2.2.2 / APG: keyboard focus arriving in the carousel stops rotation for good; only the control restarts it.
  function onFocus(event: FocusEvent<HTMLElement>) {
    if (keyboardFocusInside.current || !event.target.matches(":focus-visible")) return;
    keyboardFocusInside.current = true;
    setRotation("off");
  }

  function onBlur(event: FocusEvent<HTMLElement>) {
    const to = event.relatedTarget;
    if (!(to instanceof Node && event.currentTarget.contains(to))) keyboardFocusInside.current = false;
  }

  // Hover pauses only while a mouse or pen is over the carousel; a touch has no hover.
  function onHover(event: PointerEvent<HTMLElement>, over: boolean) {
    if (event.pointerType !== "touch") setHovered(over);
  }

  return (
    // Arrow keys work wherever focus is inside the carousel; tabIndex -1 lets a click on a slide give it focus.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <section
      aria-roledescription="carousel"
      aria-label={carousel.label}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      onBlur={onBlur}
      onPointerEnter={(event) => onHover(event, true)}
      onPointerLeave={(event) => onHover(event, false)}
      className="carousel"
    >
      {emblaApi ? (
        // Laid over the image box (same aspect ratio), so showing the controls moves nothing.
        <div className="pointer-events-none absolute inset-x-0 top-0 z-10 aspect-video">
          <RoundButton
            label={rotationOn ? carousel.stopRotation : carousel.startRotation}
            controls={slidesId}
            onClick={() => setRotation(rotationOn ? "off" : "on")}
            position="left-3 top-3"
          >
            {rotationOn ? <PauseIcon /> : <PlayIcon />}
          </RoundButton>
          <RoundButton
            label={carousel.previous}
            controls={slidesId}
            onClick={() => go("previous")}
            position="left-3 top-1/2 -translate-y-1/2"
          >
            <PreviousIcon />
          </RoundButton>
          <RoundButton
            label={carousel.next}
            controls={slidesId}
            onClick={() => go("next")}
            position="right-3 top-1/2 -translate-y-1/2"
          >
            <NextIcon />
          </RoundButton>
          <div role="group" aria-label={carousel.pickersLabel} className="carousel-pickers">
            {photos.art.map((slide, index) => {
              const current = index === selected;
              return (
                <button
                  key={slide.src}
                  type="button"
                  onClick={() => go(index)}
                  aria-label={carousel.pickerLabel(index + 1, total)}
                  aria-current={current ? "true" : undefined}
                  aria-controls={slidesId}
                  className="carousel-picker group/picker"
                >
                  <span
                    aria-hidden="true"
                    className={`block h-2.5 rounded-full transition-all motion-reduce:transition-none ${
                      current ? "w-6 bg-ember-400" : "w-2.5 bg-bone-300/80 group-hover/picker:bg-bone-50"
                    }`}
                  />
                </button>
              );
            })}
          </div>
        </div>
      ) : null}

      <div ref={viewportRef} className="touch-pan-y select-none overflow-hidden" {...swipe}>
        <div id={slidesId} className="flex" aria-live={rotating ? "off" : "polite"}>
          {photos.art.map((slide, index) => {
            const hidden = index !== selected;
            // The owner's published photo for this slide, else the build's (photos/), else the drawn art.
            const photo = photos.slides[index];
            const caption = photos.captions[index] ?? slide.caption;
            return (
              <div
                key={slide.src}
                role="group"
                aria-roledescription="slide"
                aria-label={carousel.slideLabel(index + 1, total)}
                aria-hidden={hidden || undefined}
                // React 18 does not know `inert`; an empty string renders the bare attribute.
                {...(hidden ? { inert: "" } : {})}
                className="min-w-0 flex-[0_0_100%]"
              >
                <figure className="flex h-full flex-col">
                  {photo ? (
                    <ResponsivePhoto
                      photo={photo}
                      sizes={slideSizes}
                      // The first photo is the LCP; the rest wait, then load once the page has (before they are shown).
                      lazy={index !== 0 && !loaded}
                      priority={index === 0 ? "high" : "low"}
                      className="aspect-video"
                    />
                  ) : (
                    <img
                      src={slide.src}
                      alt={slide.alt}
                      width={carousel.imageWidth}
                      height={carousel.imageHeight}
                      loading={index === 0 || loaded ? "eager" : "lazy"}
                      // React 18 warns on the camelCase prop; the lowercase HTML attribute passes through as it is.
                      {...{ fetchpriority: index === 0 ? "high" : "low" }}
                      decoding={index === 0 ? "sync" : "async"}
                      draggable={false}
                      className="carousel-art"
                    />
                  )}
                  <figcaption className="carousel-caption">
                    {/* The captions are lower case in the content; shown in sentence case. */}
                    <span className="first-letter:uppercase">{caption}</span>
                  </figcaption>
                </figure>
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
