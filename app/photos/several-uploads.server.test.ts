import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { receiveSeveral } from "~/photos/several-uploads.server";

const spec = { file: "photos", maxFiles: 6, maxFileBytes: 1024 * 1024, fields: ["body"] as const, fieldBytes: 4096 };

const post = (form: FormData) => new Request("http://127.0.0.1/inbox/x", { method: "POST", body: form });

describe("a form with a few photos received to temporary files", () => {
  let outer: string | undefined;
  let dir: string;
  beforeEach(() => {
    outer = process.env.TMPDIR;
    dir = mkdtempSync(join(tmpdir(), "haunt-several-test-"));
    process.env.TMPDIR = dir;
  });
  afterEach(() => {
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    rmSync(dir, { recursive: true, force: true });
  });

  it("leaves no folder behind when it carries words and no file", async () => {
    const form = new FormData();
    form.set("body", "The skeleton has its arms.");
    const received = await receiveSeveral(post(form), 64 * 1024, spec);
    expect(received).toMatchObject({ ok: true, fields: { body: "The skeleton has its arms." }, files: [] });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("keeps the files until they are discarded, then removes their folder", async () => {
    const form = new FormData();
    form.set("body", "Two photos.");
    form.append("photos", new Blob([new Uint8Array([1, 2, 3])]), "one.jpg");
    form.append("photos", new Blob([new Uint8Array([4, 5])]), "two.jpg");
    const received = await receiveSeveral(post(form), 64 * 1024, spec);
    if (!received.ok) throw new Error(`refused: ${received.problem}`);
    expect(received.files.map((file) => [file.fileName, file.size])).toEqual([
      ["one.jpg", 3],
      ["two.jpg", 2],
    ]);
    expect(readdirSync(dir)).toHaveLength(1);
    await received.files[0]!.discard();
    expect(readdirSync(dir)).toEqual([]);
  });
});
