# Sourced by bin/test. print_pass_times STAMP STARTED: one line per test pass with the seconds its
# tests took, summed from the <testsuite time="..."> of the surefire and failsafe XML reports written
# after the file STAMP was made (older reports are a previous run's): the main suite per module, then
# each compatibility pass over all modules; last, the wall time since STARTED (epoch seconds). The
# sums are test time: classes that ran in parallel forks add up to more than the pass's wall time.

# _suite_seconds DIR...: the summed testsuite times of the TEST-*.xml files in DIRs newer than $_stamp.
_suite_seconds() {
  local d
  for d in "$@"; do
    if [ -d "$d" ]; then find "$d" -maxdepth 1 -name 'TEST-*.xml' -newer "$_stamp" -print0; fi
  done | xargs -0 -r grep -ho '<testsuite [^>]*' \
    | sed -n 's/.* time="\([^"]*\)".*/\1/p' | tr -d , \
    | awk '{ s += $1; n++ } END { if (n) printf "%.0f", s }'
}

print_pass_times() {
  local _stamp=$1 started=$2 target module secs pass
  for target in */target integrations/*/target; do
    [ -d "$target" ] || continue
    module=${target%/target}
    secs=$(_suite_seconds "$target/surefire-reports" "$target/failsafe-reports") || true
    if [ -n "$secs" ]; then echo "jetsink: pass main $module: ${secs}s"; fi
  done
  for pass in compat-oldest compat-previous; do
    secs=$(_suite_seconds */target/"$pass"-reports */target/"$pass"-it-reports) || true
    if [ -n "$secs" ]; then echo "jetsink: pass $pass: ${secs}s"; fi
  done
  echo "jetsink: bin/test took $(( $(date +%s) - started ))s"
}
