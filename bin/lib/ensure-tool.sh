# Sourced by bench/run and bin/test. ensure_tool CMD PACKAGE: finds CMD (PATH, /usr/sbin) and, when it is absent
# and we are root with apt, installs Debian's PACKAGE (running `apt-get update` once if the install
# fails on a stale index). Prints the tool's path, or returns 1.
ensure_tool() {
  local cmd=$1 pkg=$2 found
  found=$(command -v "$cmd" 2>/dev/null || true)
  [ -z "$found" ] && [ -x "/usr/sbin/$cmd" ] && found=/usr/sbin/$cmd
  if [ -z "$found" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "jetsink: $cmd not found; installing Debian's $pkg package" >&2
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >&2; then
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg"; } >&2 \
        || echo "jetsink: apt-get install $pkg failed" >&2
    fi
    found=$(command -v "$cmd" 2>/dev/null || true)
    [ -z "$found" ] && [ -x "/usr/sbin/$cmd" ] && found=/usr/sbin/$cmd
  fi
  if [ -z "$found" ]; then
    echo "jetsink: $cmd is required (Debian: sudo apt-get install $pkg)" >&2
    return 1
  fi
  echo "$found"
}
