# Sourced by bin/test, bin/chaos, bin/jetsink and bench/run.
#
# ensure_nats_server [current|trixie|bookworm]
#   Sets NATS_SERVER_BIN (and NATS_SERVER_VERSION, e.g. 2.15.1) or returns 1 with the reason.
#   NATS_SERVER_BIN, when already set, wins: it is checked and used as it is.
#   current (the default): Debian unstable's nats-server when it is at least 2.11, else trixie's.
#   trixie, bookworm: that suite's package (2.10.x and 2.9.10, the oldest jetsink supports).
#
# The package is fetched with apt into a private sources list, lists and cache under
# ${XDG_CACHE_HOME:-~/.cache}/jetsink, unpacked with dpkg-deb, and the binary kept as
# .../jetsink/nats-server/<version>/nats-server. Nothing on the system is installed or changed.
# A suite index younger than a day is reused; without the network a binary fetched before from the
# same suite is used, with a note. A server that cannot be had is an error, never a skip.

# The oldest nats-server jetsink is proven against (the compatibility pass); the daemon warns below it.
JETSINK_OLDEST_NATS=2.9.10
# The current server must be at least this (Debian unstable's; trixie's 2.10 is the fallback).
JETSINK_CURRENT_NATS_MIN=2.11.0

jetsink_cache_dir() {
  printf '%s/jetsink' "${XDG_CACHE_HOME:-$HOME/.cache}"
}

# The Debian mirror: JETSINK_DEBIAN_MIRROR, else the one this machine's apt already uses (not the
# security archive).
_jetsink_debian_mirror() {
  if [ -n "${JETSINK_DEBIAN_MIRROR:-}" ]; then
    printf '%s' "$JETSINK_DEBIAN_MIRROR"
    return
  fi
  local uri=
  uri=$(grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v -- '-security' | head -n1 || true)
  [ -n "$uri" ] || uri=$(grep -h '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
    | awk '{for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) {print $i; exit}}' | grep -v -- '-security' | head -n1 || true)
  printf '%s' "${uri:-http://deb.debian.org/debian}"
}

# _jetsink_apt SUITE ARGS...: apt-get (or apt-cache, with APT=apt-cache) on the private lists of SUITE.
_jetsink_apt() {
  local suite=$1 dir
  shift
  dir=$(jetsink_cache_dir)/apt/$suite
  "${APT:-apt-get}" -q -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$dir/sources" \
    -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" -o Dir::State::Status=/dev/null \
    -o APT::Sandbox::User="$(id -un)" -o Debug::NoLocking=true "$@"
}

# _jetsink_refresh_suite SUITE: makes sure the private index of SUITE exists and is under a day old.
_jetsink_refresh_suite() {
  local suite=$1 dir keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  dir=$(jetsink_cache_dir)/apt/$suite
  mkdir -p "$dir/sources" "$dir/lists/partial" "$dir/cache/archives/partial" || return 1
  if [ ! -r "$keyring" ]; then
    echo "jetsink: $keyring is missing (package debian-archive-keyring); cannot fetch nats-server" >&2
    return 1
  fi
  printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
    "$(_jetsink_debian_mirror)" "$suite" "$keyring" >"$dir/sources/jetsink-$suite.sources"
  if [ -n "$(find "$dir/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 -print -quit 2>/dev/null)" ]; then
    return 0
  fi
  _jetsink_apt "$suite" update -qq >"$dir/update.log" 2>&1 || {
    echo "jetsink: apt-get update of Debian's $suite suite failed:" >&2
    tail -n 3 "$dir/update.log" | sed 's/^/         /' >&2
    return 1
  }
}

# _jetsink_suite_version SUITE: prints nats-server's upstream version in SUITE's index (2.15.1).
_jetsink_suite_version() {
  local v
  v=$(APT=apt-cache _jetsink_apt "$1" show nats-server 2>/dev/null | awk '/^Version:/ {print $2; exit}')
  v=${v#*:}
  printf '%s' "${v%-*}"
}

# _jetsink_fetch_suite SUITE: prints the cached binary of SUITE's nats-server, fetching it if needed.
_jetsink_fetch_suite() {
  local suite=$1 cache version= target work deb
  cache=$(jetsink_cache_dir)/nats-server
  local refreshed=0
  if _jetsink_refresh_suite "$suite"; then
    refreshed=1
    version=$(_jetsink_suite_version "$suite")
  fi
  if [ -z "${version:-}" ]; then
    # No index (offline?): the binary this suite gave last time, if any.
    version=$(cat "$cache/suite-$suite" 2>/dev/null || true)
    if [ -z "$version" ] || [ ! -x "$cache/$version/nats-server" ]; then
      echo "jetsink: cannot find nats-server in Debian's $suite suite ($(_jetsink_debian_mirror)), and none was fetched from it before" >&2
      [ "$refreshed" = 1 ] && grep -h -E '^(W|E):' "$(jetsink_cache_dir)/apt/$suite/update.log" 2>/dev/null \
        | tail -n 2 | sed 's/^/         /' >&2
      return 1
    fi
    echo "jetsink: Debian's $suite index is unavailable; using nats-server $version fetched from it before" >&2
  fi
  target=$cache/$version/nats-server
  if [ ! -x "$target" ]; then
    echo "jetsink: fetching nats-server $version from Debian's $suite suite into $cache/$version" >&2
    work=$(mktemp -d) || return 1
    if ! (cd "$work" && _jetsink_apt "$suite" download nats-server >download.log 2>&1); then
      echo "jetsink: apt-get download nats-server ($suite) failed:" >&2
      tail -n 3 "$work/download.log" | sed 's/^/         /' >&2
      rm -rf "$work"
      return 1
    fi
    deb=$(ls "$work"/nats-server_*.deb 2>/dev/null | head -n1)
    if [ -z "$deb" ] || ! dpkg-deb -x "$deb" "$work/x" || [ ! -f "$work/x/usr/sbin/nats-server" ]; then
      echo "jetsink: the nats-server package from $suite did not unpack to usr/sbin/nats-server" >&2
      rm -rf "$work"
      return 1
    fi
    mkdir -p "$cache/$version" && install -m 0755 "$work/x/usr/sbin/nats-server" "$target.tmp" \
      && mv -f "$target.tmp" "$target" || { rm -rf "$work"; return 1; }
    rm -rf "$work"
  fi
  if ! "$target" --version >/dev/null 2>&1; then
    echo "jetsink: $target does not run on this machine ($("$target" --version 2>&1 | head -n1))" >&2
    return 1
  fi
  printf '%s' "$version" >"$cache/suite-$suite"
  printf '%s' "$target"
}

# _jetsink_version_of BIN: prints the version a nats-server binary reports (2.15.1).
_jetsink_version_of() {
  "$1" --version 2>&1 | sed -n 's/.*v\([0-9][0-9.]*\).*/\1/p' | head -n1
}

ensure_nats_server() {
  local which=${1:-current} found=
  if [ -n "${NATS_SERVER_BIN:-}" ]; then
    if [ ! -x "$NATS_SERVER_BIN" ] || [ ! -f "$NATS_SERVER_BIN" ]; then
      echo "jetsink: NATS_SERVER_BIN=$NATS_SERVER_BIN is not an executable file" >&2
      return 1
    fi
    found=$NATS_SERVER_BIN
  else
    case "$which" in
      current)
        found=$(_jetsink_fetch_suite unstable || true)
        if [ -n "$found" ] && dpkg --compare-versions "$(_jetsink_version_of "$found")" lt "$JETSINK_CURRENT_NATS_MIN"; then
          echo "jetsink: Debian unstable's nats-server is older than $JETSINK_CURRENT_NATS_MIN; trying trixie's" >&2
          found=
        fi
        if [ -z "$found" ]; then
          found=$(_jetsink_fetch_suite trixie || true)
          [ -n "$found" ] && echo "jetsink: WARNING: using trixie's nats-server, not a current (>= $JETSINK_CURRENT_NATS_MIN) one" >&2
        fi ;;
      trixie|bookworm) found=$(_jetsink_fetch_suite "$which" || true) ;;
      *) echo "jetsink: ensure_nats_server: unknown server '$which' (current, trixie, bookworm)" >&2; return 1 ;;
    esac
    if [ -z "$found" ]; then
      echo "jetsink: could not get nats-server ($which) from Debian's packages (see above)." >&2
      echo "         Point NATS_SERVER_BIN at a nats-server binary to use that one instead." >&2
      return 1
    fi
  fi
  NATS_SERVER_BIN=$found
  NATS_SERVER_VERSION=$(_jetsink_version_of "$found")
  export NATS_SERVER_BIN NATS_SERVER_VERSION
}
