#!/usr/bin/env bash
# `npm test`'s vitest step: the suite as two processes at once, then one merged report and one coverage check.
#
# Vitest runs every project through one pool whose size is the machine's cores minus one: on CI's 2 cores that is one
# worker, so the integration files (one at a time against the shared local cloud, much of it waiting on that cloud)
# and the ~250 unit, web and infra files (pure CPU) queued behind each other. Two processes overlap them. Each part
# writes a blob report with its raw coverage (VITEST_PART: no thresholds, no coverage report of its own); the merge
# prints every file's result and the "Tests" line once, and holds the merged coverage to vitest.config.ts's
# thresholds. A part that fails or writes no blob fails the step.
# The pure files run at a lower priority: the integration part's local cloud (DynamoDB Local, the pollers, the gateway)
# answers within its timeouts whenever it needs a core, and the pure files take the time it spends waiting.
set -uo pipefail
cd "$(dirname "$0")/.."

# The blobs alone in their folder (the merge reads every file there); each part's output and raw coverage beside it.
parts=.vitest-parts
dir=$parts/reports
rm -rf "$parts"
mkdir -p "$dir"
started=$SECONDS

part() { # name, niceness, then the --project flags
  local name=$1 niceness=$2
  shift 2
  VITEST_PART=1 nice -n "$niceness" npx vitest run --coverage --coverage.reportsDirectory="$parts/coverage-$name" "$@" \
    --reporter=blob --outputFile="$dir/$name.json" >"$parts/$name.log" 2>&1
  local status=$?
  echo "vitest part '$name' finished in $((SECONDS - started)) s (exit $status)"
  return "$status"
}

echo "vitest: integration, and unit + web + infra, as two processes (their results follow when both are done)"
part integration 0 --project integration &
integration=$!
part others 10 --project unit --project web --project infra &
others=$!
wait "$integration"
integration_status=$?
wait "$others"
others_status=$?

shown_if_failed() { # name, exit status: the part's own output says why (a failed test is also in the merged report)
  if [ "$2" -ne 0 ] || [ ! -s "$dir/$1.json" ]; then
    echo "--- vitest part '$1' output (last 60 lines) ---"
    tail -n 60 "$parts/$1.log"
  fi
}
shown_if_failed integration "$integration_status"
shown_if_failed others "$others_status"

npx vitest --merge-reports="$dir" --coverage
merge_status=$?
[ -s "$dir/integration.json" ] && [ -s "$dir/others.json" ] || { echo "vitest: a part wrote no report"; exit 1; }
[ "$integration_status" -eq 0 ] && [ "$others_status" -eq 0 ] && [ "$merge_status" -eq 0 ]
