#!/usr/bin/env bash
# One command on a fresh machine: Node.js 24 (fetched if the machine's node is older), dependencies, build, start.
# Installs only when package-lock.json (or the Node.js major) changed since the last install, and builds only when the
# sources changed since the last build: a stamp of their hashes is kept next to what they made (node_modules/, build/).
# The site's environment variables (README, "Configuration") are passed through.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node24.sh
log() { echo "[start] $*" >&2; }

# What the install depends on: the lock file and the Node.js major it was installed with.
install_key="$(sha256sum package-lock.json | cut -d' ' -f1) node$(node -p 'process.versions.node.split(".")[0]')"
install_stamp=node_modules/.haunt-install-stamp
if [ "$(cat "$install_stamp" 2>/dev/null)" != "$install_key" ]; then
  log "installing dependencies (package-lock.json changed or nothing installed yet)"
  npm ci --no-audit --no-fund
  echo "$install_key" >"$install_stamp"
fi

# What the build reads: the app, the server (server/), public files (not the built ones), the build configuration.
build_key="$install_key $(
  {
    find app server public -type f -not -path 'public/build/*' -print0 | sort -z | xargs -0 sha256sum
    sha256sum package.json remix.config.js tailwind.config.ts tsconfig.json scripts/build-server.mjs
  } | sha256sum | cut -d' ' -f1
)"
build_stamp=build/.haunt-build-stamp
if [ "$(cat "$build_stamp" 2>/dev/null)" != "$build_key" ] || [ ! -f build/server/index.js ] || [ ! -d public/build ]; then
  log "building (sources changed or no build yet)"
  npm run build
  echo "$build_key" >"$build_stamp"
else
  log "dependencies and build are up to date"
fi
# The heap flags and malloc settings of `npm start` (bench/README.md, "Memory"; docs/photos.md, "Memory").
export MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072
exec node --max-old-space-size=160 --max-semi-space-size=4 build/server/index.js
