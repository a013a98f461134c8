#!/usr/bin/env bash
# The protocol simulation's mutation audit (docs/testing.md, "Mutation audit"): plants each bug of
# functions/core/src/test/resources/mutations/*.patch into the main code, one at a time, runs the simulation's short
# random run (and the exhaustive configurations when the random run finds nothing), records which check failed and
# after how many schedules, and takes the bug out again. The planted bugs live only in these patch files: nothing of
# them is reachable from a build of the repository.
#
#   scripts/mutation-audit.sh [patch-name-substring ...]     e.g. scripts/mutation-audit.sh 02 content-since
#   PROTOCOL_SCHEDULES=300 scripts/mutation-audit.sh          random schedules per bug (default 500)
#
# Needs a clean functions/core/src/main (it refuses to run over local changes there).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk.sh
patches=functions/core/src/test/resources/mutations
schedules=${PROTOCOL_SCHEDULES:-500}
main=functions/core/src/main
if ! git diff --quiet -- "$main"; then
  echo "mutation-audit: $main has local changes; commit or stash them first" >&2
  exit 2
fi
applied=""
restore() { if [ -n "$applied" ]; then git apply -R "$applied"; applied=""; fi; }
trap restore EXIT INT TERM
run() { # $1: test selector; prints the first violation line, if any
  mvn -B -o -q test-compile surefire:test -pl functions/core -Dtest="$1" -Dprotocol.schedules="$schedules" \
    -Dsurefire.failIfNoSpecifiedTests=false 2>&1 | grep -m 1 '^VIOLATION' || true
}
printf '| bug | found by | after |\n|---|---|---|\n'
for patch in "$patches"/*.patch; do
  name=$(basename "$patch" .patch)
  if [ $# -gt 0 ]; then
    wanted=false
    for w in "$@"; do case "$name" in *"$w"*) wanted=true ;; esac; done
    $wanted || continue
  fi
  git apply "$patch"
  applied="$patch"
  found=$(run 'ProtocolSimulationTest#random*')
  [ -n "$found" ] || found=$(run 'ProtocolSimulationTest#every*')
  restore
  if [ -z "$found" ]; then
    printf '| %s | NOT FOUND | %s random schedules and every exhaustive configuration |\n' "$name" "$schedules"
  else
    check=$(sed -e 's/.*AssertionError: //' -e 's/^\([^:(]*\).*/\1/' <<<"$found")
    after=$(sed -n -e 's/^VIOLATION in random schedule \([0-9]*\).*/random schedule \1/p' \
      -e 's/^VIOLATION in exhaustive mode, after \([0-9]*\) schedules.*/exhaustive, schedule \1/p' <<<"$found")
    printf '| %s | %s | %s |\n' "$name" "$check" "$after"
    echo "    $found" | cut -c1-400 >&2
  fi
done
# leave target/classes built from the clean sources
mvn -B -o -q compile -pl functions/core >/dev/null
