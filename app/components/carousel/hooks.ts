import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type PointerEvent,
} from "react";

// useLayoutEffect warns during a server render; nothing needs to run there.
const useIsomorphicLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

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

/**
 * Calls `advance` every `intervalMs` while `running` and the page is visible. The returned `restart` makes the next
 * call wait a full interval again, as does the page coming back into view. A small timer rather than
 * embla-carousel-autoplay: the plugin is about 1 kB of the home page's script budget, and hover, focus and the
 * rotation control already decide when the show runs.
 */
export function useAutoAdvance(running: boolean, intervalMs: number, advance: () => void): () => void {
  const latestAdvance = useRef(advance);
  const [round, setRound] = useState(0);
  useEffect(() => {
    latestAdvance.current = advance;
  });
  // A layout effect, so the timer starts or stops in the same commit that updates the label and the live region.
  useIsomorphicLayoutEffect(() => {
    if (!running) return;
    let timer = 0;
    // Nothing moves while the page is hidden; back in view, the next change is a full interval away.
    const start = () => {
      window.clearInterval(timer);
      if (document.visibilityState !== "hidden") timer = window.setInterval(() => latestAdvance.current(), intervalMs);
    };
    start();
    document.addEventListener("visibilitychange", start);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", start);
    };
    // `round` is not read: a new value from `restart` is what starts a fresh interval.
  }, [running, intervalMs, round]);
  return useCallback(() => setRound((value) => value + 1), []);
}
