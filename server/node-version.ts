/**
 * The first thing the server and the CLI run, before anything that needs Node.js 24 (node:sqlite, crypto.argon2) is
 * loaded: on an older Node, one clear line and exit code 1 instead of a stack trace from deep inside.
 */
export function requireNode24(what: string): void {
  const major = Number(process.versions.node.split(".")[0]);
  if (major >= 24) return;
  process.stderr.write(
    `${what} needs Node.js 24 or newer; this is ${process.version}. Run \`source scripts/node24.sh\` (it fetches Node 24 ` +
      "when needed) or use `nvm install && nvm use` in the checkout.\n",
  );
  process.exit(1);
}
