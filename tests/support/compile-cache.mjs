// The server keeps V8's compiled modules in os.tmpdir()/node-compile-cache (server/index.ts), so a restart skips
// compiling. A test or bench server given a TMPDIR of its own (to leave nothing behind) would compile everything
// afresh at each start, seconds on a small machine: its servers keep the cache where this process's temp folder has
// it, shared by all of them as a host's restarts share it.
import { tmpdir } from "node:os";
import { join } from "node:path";

export const compileCacheEnv = {
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), "node-compile-cache"),
};
