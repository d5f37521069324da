import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * A full garbage collection now. A stored upload (or a clip's chunks) leaves 25 MB buffers (its bytes, and their copy sent to
 * the SQLite worker) that V8 frees only at its next full collection, which a 160 MB heap with little else to do may
 * not run for several uploads: four uploads one after another held 300 MB. One collection per stored photo (a few
 * ms, a rare owner's action) gives that memory back at once. V8's own gc(), reached without a start flag.
 */
type Gc = (options?: { type: "major" | "minor" }) => void;
let gc: Gc | undefined;
function exposedGc(): Gc {
  if (!gc) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as Gc;
  }
  return gc;
}

export function collectGarbage(): void {
  exposedGc()();
}

/**
 * A young-generation collection now (a scavenge: a millisecond or two). A request body arrives as 64 KB buffers whose
 * memory V8 gives back only when their objects are collected, and it waits for 64 MB of such memory before it
 * collects by itself: four 25 MB uploads at once held 70 MB of chunks already written to disk.
 */
export function collectYoungGarbage(): void {
  exposedGc()({ type: "minor" });
}
