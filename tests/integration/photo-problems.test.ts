import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hugePngHeader, smallJpeg, truncatedJpeg } from "../support/fixture-photos.mjs";
import { projectRoot } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * What the photo step of the build (scripts/photos.mjs, run as `npm run build` runs it) says about photos it cannot
 * use: one line naming the file and why, exit code 1, nothing published; and a warning naming each file it ignores.
 * Each case is a small copy of what the script reads (photos/, the encoder, the carousel art, node_modules) in a temp
 * dir.
 */

const temp = useTempDir("haunt-photo-problems-");

function siteWith(photos: Record<string, Buffer | string>): string {
  const dir = temp.dir();
  mkdirSync(join(dir, "scripts"));
  mkdirSync(join(dir, "photos"));
  mkdirSync(join(dir, "app", "wording"), { recursive: true });
  mkdirSync(join(dir, "public", "images", "carousel"), { recursive: true });
  mkdirSync(join(dir, "app", "photos"));
  copyFileSync(join(projectRoot, "scripts", "photos.mjs"), join(dir, "scripts", "photos.mjs"));
  // The encoder the script shares with the server (a .ts file Node runs by stripping its types).
  const encoder = join("app", "photos", "encoder.server.ts");
  copyFileSync(join(projectRoot, encoder), join(dir, encoder));
  copyFileSync(join(projectRoot, "package.json"), join(dir, "package.json"));
  const art = join("public", "images", "carousel", "large-custom-prop.svg");
  copyFileSync(join(projectRoot, art), join(dir, art));
  symlinkSync(join(projectRoot, "node_modules"), join(dir, "node_modules"));
  for (const [name, content] of Object.entries(photos)) writeFileSync(join(dir, "photos", name), content);
  return dir;
}

function build(dir: string) {
  const run = spawnSync(process.execPath, ["scripts/photos.mjs"], { cwd: dir, encoding: "utf8", timeout: 55_000 });
  const manifest = join(dir, "app", "wording", "photos.generated.ts");
  return {
    code: run.status,
    stdout: run.stdout,
    errorLines: run.stderr.split("\n").filter((line) => line !== ""),
    manifest: existsSync(manifest) ? readFileSync(manifest, "utf8") : null,
  };
}

const alt = (text: string) => JSON.stringify({ alt: text });

describe("a photo the build cannot use stops it with one line naming the file and the reason", () => {
  it("a JPEG cut short (an interrupted copy) is refused, not shipped with a grey part", async () => {
    const result = build(siteWith({ "slide-1.jpg": await truncatedJpeg(), "slide-1.json": alt("A prop") }));
    expect(result.code).toBe(1);
    expect(result.errorLines).toEqual([
      expect.stringMatching(/^\[photos\] photos\/slide-1\.jpg is cut short or damaged \(.+\): copy it again/),
    ]);
    expect(result.manifest).toBeNull();
  });

  it("a 30,000 x 30,000 PNG is refused from its header, before anything decodes it", () => {
    const result = build(siteWith({ "about.png": hugePngHeader(), "about.json": alt("The workshop") }));
    expect(result.code).toBe(1);
    expect(result.errorLines).toEqual([
      "[photos] photos/about.png is 30000 x 30000 pixels (900 megapixels): the build takes at most 50 megapixels; save a smaller copy (6000 px wide is plenty)",
    ]);
    expect(result.manifest).toBeNull();
  });

  it("a sidecar that is not JSON names itself", async () => {
    const result = build(siteWith({ "slide-2.jpg": await smallJpeg(), "slide-2.json": '{"alt": "unfinished' }));
    expect(result.code).toBe(1);
    expect(result.errorLines).toEqual([expect.stringMatching(/^\[photos\] photos\/slide-2\.json is not valid JSON/)]);
  });
});

describe("files the build does not use", () => {
  it("are each named in a warning line, and the photos it recognises still build", async () => {
    // A small photo: what is asserted is the warnings and that the build still runs, not the encoder's work on noise.
    const photo = await smallJpeg(480, 360);
    const result = build(
      siteWith({
        "slide-1.jpg": photo,
        "slide-1.json": alt("A prop"),
        "about copy (1).jpg": photo,
        "Über-uns.jpg": photo,
        "slide-2.heic": "not read",
        "slide-3.json": alt("no photo for this one"),
        "README.md": "the guide is not a photo",
      }),
    );
    expect(result.code).toBe(0);
    const used = "the build takes only slide-1, slide-2, slide-3, about (.jpg, .jpeg, .png, .webp)";
    expect(result.errorLines.sort()).toEqual(
      [
        `[photos] warning: photos/about copy (1).jpg is not used: ${used}, each with a .json beside it (docs/photos.md)`,
        `[photos] warning: photos/Über-uns.jpg is not used: ${used}, each with a .json beside it (docs/photos.md)`,
        `[photos] warning: photos/slide-2.heic is not used: ${used}, each with a .json beside it (docs/photos.md)`,
        "[photos] warning: photos/slide-3.json is not used: there is no slide-3 photo beside it",
      ].sort(),
    );
    expect(result.manifest).toContain('"alt": "A prop"');
  });
});
