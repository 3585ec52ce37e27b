# Sourced by bin/test and bin/jetsink. Finds nats-server (PATH, /usr/sbin) and, when it is absent
# and we are root with apt, installs Debian's package. Sets NATS_SERVER_BIN or returns 1.
ensure_nats_server() {
  local found
  found=$(command -v nats-server 2>/dev/null || true)
  [ -z "$found" ] && [ -x /usr/sbin/nats-server ] && found=/usr/sbin/nats-server
  if [ -z "$found" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "jetsink: nats-server not found; installing Debian's nats-server package" >&2
      if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server; } >&2; then
        echo "jetsink: apt-get install nats-server failed" >&2
        return 1
      fi
      found=$(command -v nats-server 2>/dev/null || true)
      [ -z "$found" ] && [ -x /usr/sbin/nats-server ] && found=/usr/sbin/nats-server
    fi
  fi
  if [ -z "$found" ]; then
    echo "jetsink: nats-server is required. Install it (Debian: sudo apt-get install nats-server)" >&2
    echo "         or put a nats-server binary on PATH." >&2
    return 1
  fi
  NATS_SERVER_BIN=$found
  export NATS_SERVER_BIN
}
