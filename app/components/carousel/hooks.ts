import { useRef, useSyncExternalStore, type PointerEvent } from "react";

const reducedMotionQuery = "(prefers-reduced-motion: reduce)";

function subscribeToReducedMotion(onChange: () => void) {
  const query = window.matchMedia(reducedMotionQuery);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** True when the visitor asked for less motion. False on the server and during hydration, so markup matches. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeToReducedMotion,
    () => window.matchMedia(reducedMotionQuery).matches,
    () => false,
  );
}

function subscribeToLoad(onChange: () => void) {
  window.addEventListener("load", onChange);
  return () => window.removeEventListener("load", onChange);
}

/** True once the window's load event has fired: a safe moment to fetch what is not needed for the first paint. */
export function useDocumentLoaded(): boolean {
  return useSyncExternalStore(
    subscribeToLoad,
    () => document.readyState === "complete",
    () => false,
  );
}

/**
 * Horizontal swipes by touch, pen or mouse drag. Only the distance between pointerdown and pointerup counts: more than
 * `thresholdPx` sideways (and more sideways than vertical) calls onSwipe. Vertical page scrolling stays with the
 * browser through `touch-action: pan-y` on the element, which cancels the pointer when it scrolls.
 */
export function useSwipe(thresholdPx: number, onSwipe: (direction: "previous" | "next") => void) {
  const start = useRef<{ id: number; x: number; y: number } | null>(null);

  return {
    onPointerDown(event: PointerEvent<HTMLElement>) {
      if (event.pointerType === "mouse" && event.button !== 0) return;
      start.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
      // Keeps the pointerup coming to us when a mouse drag ends outside the carousel.
      if (event.pointerType === "mouse") event.currentTarget.setPointerCapture(event.pointerId);
    },
    onPointerUp(event: PointerEvent<HTMLElement>) {
      const from = start.current;
      start.current = null;
      if (!from || from.id !== event.pointerId) return;
      const dx = event.clientX - from.x;
      const dy = event.clientY - from.y;
      if (Math.abs(dx) > thresholdPx && Math.abs(dx) > Math.abs(dy)) onSwipe(dx < 0 ? "next" : "previous");
    },
    onPointerCancel() {
      start.current = null;
    },
  };
}
