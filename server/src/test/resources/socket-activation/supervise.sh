#!/usr/bin/env bash
# Stands in for systemd running jetsink.service behind jetsink.socket: systemd-socket-activate
# made the listening socket (descriptor 3) and exec'd this script, which starts the daemon with
# that socket and LISTEN_PID naming the daemon (as systemd sets it between fork and exec). A
# daemon that exits 0 (a SIGTERM restart) is started again at once, until $SUPERVISOR_STOP_FILE
# exists. Each start and exit is reported on standard error for the test to follow.
set -u
launcher=$1
while [ ! -e "$SUPERVISOR_STOP_FILE" ]; do
  sh -c 'LISTEN_PID=$$; export LISTEN_PID; exec "$@"' jetsink "$launcher" serve &
  child=$!
  echo "supervisor: started pid=$child" >&2
  wait "$child"
  status=$?
  echo "supervisor: exited pid=$child status=$status" >&2
  if [ "$status" != 0 ]; then
    exit "$status"
  fi
done
