#!/usr/bin/env bash
# One command on a fresh machine: Node.js 24 (fetched if the machine's node is older), dependencies, build, start.
# The site's environment variables (README, "Configuration") are passed through.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node24.sh
npm ci --no-audit --no-fund
npm run build
exec node build/server/index.js
