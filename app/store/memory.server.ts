import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * A full garbage collection now. A stored upload (or a clip's chunks) leaves 25 MB buffers (its bytes, and their copy sent to
 * the SQLite worker) that V8 frees only at its next full collection, which a 160 MB heap with little else to do may
 * not run for several uploads: four uploads one after another held 300 MB. One collection per stored photo (a few
 * ms, a rare owner's action) gives that memory back at once. V8's own gc(), reached without a start flag.
 */
let gc: (() => void) | undefined;
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  }
  gc();
}
