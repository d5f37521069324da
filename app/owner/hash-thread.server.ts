import { Worker } from "node:worker_threads";
import type { Argon2Parameters } from "~/owner/password.server";

/**
 * The server's password checks run on one thread of their own, one at a time (the HashGate queues them), never on
 * libuv's pool. On the pool a burst of hashes held up static files and the database's file work, and glibc kept each
 * pool thread's 19 MiB block after the hash (its mmap threshold rises past a freed large block), up to 4 × 19 MiB
 * for good. On one thread the block is kept once, so the hashing's share of the memory budget is one block and one
 * small isolate, whatever the load.
 */

/** The thread's whole program, run from its source text (Worker `eval`): nothing from outside its own body. */
function hashThread() {
  const { parentPort } = process.getBuiltinModule("node:worker_threads");
  const { argon2Sync } = process.getBuiltinModule("node:crypto");
  parentPort!.on("message", ({ id, parameters }: { id: number; parameters: Argon2Parameters }) => {
    try {
      parentPort!.postMessage({ id, tag: argon2Sync("argon2id", parameters) });
    } catch (error) {
      parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
}

const source = `(${hashThread.toString()})()`;
const pending = new Map<number, { resolve: (tag: Buffer) => void; reject: (error: Error) => void }>();
let worker: Worker | undefined;
let nextId = 0;

function thread(): Worker {
  if (worker) return worker;
  const started = new Worker(source, { eval: true });
  started.unref(); // an idle hashing thread never keeps the process alive
  started.on("message", (reply: { id: number; tag?: Uint8Array; error?: string }) => {
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.tag) waiter?.resolve(Buffer.from(reply.tag));
    else waiter?.reject(new Error(`argon2: ${reply.error}`));
  });
  // A thread that died (it should not) is replaced at the next check; the checks it held fail.
  const fail = (error: Error) => {
    if (worker === started) worker = undefined;
    for (const [id, waiter] of pending) {
      pending.delete(id);
      waiter.reject(error);
    }
  };
  started.on("error", fail);
  started.on("exit", (code) => fail(new Error(`the hashing thread stopped (exit code ${code})`)));
  worker = started;
  return started;
}

/** argon2id on the hashing thread. */
export function deriveOnHashThread(parameters: Argon2Parameters): Promise<Buffer> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    thread().postMessage({ id, parameters });
  });
}
