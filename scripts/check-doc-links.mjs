// Checks every relative link in README.md, CHANGELOG.md and docs/**/*.md: the file exists, and a #fragment names a
// heading of that page (GitHub's anchor rules, simplified). Exits 1 when a link is broken. Usage: node scripts/check-doc-links.mjs
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

const markdownUnder = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? markdownUnder(path) : path.endsWith(".md") ? [path] : [];
  });

const anchorsOf = (file) =>
  new Set(
    [...readFileSync(file, "utf8").matchAll(/^#+\s+(.*)$/gm)].map(([, heading]) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\w\- ]/g, "")
        .replace(/ /g, "-"),
    ),
  );

let checked = 0;
let broken = 0;
for (const file of ["README.md", "CHANGELOG.md", ...markdownUnder("docs")]) {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(link)) continue; // http:, https:, mailto:
    checked++;
    const [path, fragment] = link.split("#");
    const target = path ? normalize(join(dirname(file), path)) : file;
    const problem = !existsSync(target)
      ? "no such file"
      : fragment && (!target.endsWith(".md") || !anchorsOf(target).has(fragment))
        ? "no such heading"
        : undefined;
    if (problem) {
      broken++;
      console.log(`${file}: ${link}: ${problem}`);
    }
  }
}
console.log(`${checked} relative links checked, ${broken} broken`);
process.exitCode = broken ? 1 : 0;
