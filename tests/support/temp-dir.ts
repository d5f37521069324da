import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/**
 * A temp directory for one test file, removed after the file's tests. Call at the top level of a test file.
 * `dir()` gives a fresh sub-directory, `file()` a path (not yet created) in one.
 */
export function useTempDir(prefix = "haunt-test-") {
  const root = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const dir = () => mkdtempSync(join(root, "t-"));
  return { root, dir, file: (name = "enquiries.jsonl") => join(dir(), name) };
}
