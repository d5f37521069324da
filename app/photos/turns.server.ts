/**
 * One photo at a time in this process: checking an upload and encoding a rendition each take their turn,
 * first come first served, so four 25 MB uploads at once, and the encoder beside them, never decode side by side
 * (four at once took the server from 137 to 475 MB). Uploads wait on disk meanwhile (app/photos/upload.server.ts),
 * not in memory. Past `maxWaiting` turns waiting, an upload is refused at once (503 with Retry-After, with a plain message).
 */

import { collectGarbage } from "~/store/memory.server";

export const maxWaiting = 8;

/** Too many photos are waiting: the caller answers 503 with Retry-After. */
export class PhotosBusy extends Error {
  constructor() {
    super("too many photos are waiting to be checked");
    this.name = "PhotosBusy";
  }
}

/**
 * One queue per process, kept on globalThis: the Remix build (the upload route) and the server bundle (the encoder)
 * each carry their own copy of this module.
 */
const queue: { busy: boolean; waiting: Array<() => void> } = ((globalThis as Record<symbol, unknown>)[
  Symbol.for("haunt.photoTurns")
] ??= { busy: false, waiting: [] }) as { busy: boolean; waiting: Array<() => void> };
const waiting = queue.waiting;

/** How many turns are waiting (not counting the one being taken). */
export const waitingTurns = () => waiting.length;

/** Whether one more upload could wait for its turn now (asked before its body is read). */
export const turnAvailable = (): boolean => waiting.length < maxWaiting;

/**
 * Runs `work` when no other photo work runs in this process. `queueLimit: false` (the background encoder) always
 * waits; an upload past `maxWaiting` waiting is refused with PhotosBusy. `release`: a full collection afterwards.
 */
export async function photoTurn<T>(
  work: () => Promise<T>,
  { queueLimit = true, release = false }: { queueLimit?: boolean; release?: boolean | (() => boolean) } = {},
): Promise<T> {
  if (queue.busy) {
    if (queueLimit && waiting.length >= maxWaiting) throw new PhotosBusy();
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  queue.busy = true;
  try {
    return await work();
  } finally {
    // The photo's buffers are unreachable once `work` has returned: given back before the next photo's turn. A
    // function asks after the work whether it held a photo at all: a full collection costs 50-100 ms.
    if (typeof release === "function" ? release() : release) collectGarbage();
    const next = waiting.shift();
    if (next) next();
    else queue.busy = false;
  }
}
