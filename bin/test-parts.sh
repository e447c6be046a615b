#!/usr/bin/env bash
# `npm test` after typecheck and lint: the vitest suite as two processes and the browser tests as a third, all at
# once, then one merged vitest report, one coverage check and Playwright's report (decisions 0056 and 0059; 0063:
# the integration and browser parts as two shards each, tried and put back).
#
# Vitest runs every project through one pool whose size is the machine's cores minus one: on CI's 2 cores that is one
# worker, so the integration files (one at a time against the shared local cloud, much of it waiting on that cloud)
# and the ~250 unit, web and infra files (pure CPU) queued behind each other. Two processes overlap them. Each part
# writes a blob report with its raw coverage (VITEST_PART: no thresholds, no coverage report of its own); the merge
# prints every file's result and the "Tests" line once, and holds the merged coverage to vitest.config.ts's
# thresholds. A part that fails or writes no blob fails the step.
# The browser tests (one worker against a local cloud of their own) spend most of their time waiting on the browser
# and that cloud too, so they run beside the integration part rather than after the whole vitest step.
# The pure files run at a lower priority: the local clouds (DynamoDB Local, the pollers, the gateway) and the browser
# answer within their timeouts whenever they need a core, and the pure files take the time the others spend waiting.
set -uo pipefail
cd "$(dirname "$0")/.."

# The blobs alone in their folder (the merge reads every file there); each part's output and raw coverage beside it.
parts=.test-parts
dir=$parts/reports
rm -rf "$parts"
mkdir -p "$dir"
started=$SECONDS

finished() { # name, exit status
  echo "part '$1' finished in $((SECONDS - started)) s (exit $2)"
}

vitest_part() { # name, niceness, then the --project flags
  local name=$1 niceness=$2
  shift 2
  VITEST_PART=1 nice -n "$niceness" npx vitest run --coverage --coverage.reportsDirectory="$parts/coverage-$name" "$@" \
    --reporter=blob --outputFile="$dir/$name.json" >"$parts/$name.log" 2>&1
  local status=$?
  finished "$name" "$status"
  return "$status"
}

playwright_part() {
  npx playwright test >"$parts/playwright.log" 2>&1
  local status=$?
  finished playwright "$status"
  return "$status"
}

echo "tests: vitest's integration part, its unit + web + infra part and the browser tests, as three processes (their results follow when all are done)"
vitest_part integration 0 --project integration &
integration=$!
vitest_part others 10 --project unit --project web --project infra &
others=$!
playwright_part &
playwright=$!
wait "$integration"
integration_status=$?
wait "$others"
others_status=$?
wait "$playwright"
playwright_status=$?

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
[ -s "$dir/integration.json" ] && [ -s "$dir/others.json" ] || { echo "vitest: a part wrote no report"; merge_status=1; }

echo "--- browser tests (playwright) ---"
cat "$parts/playwright.log"

[ "$integration_status" -eq 0 ] && [ "$others_status" -eq 0 ] && [ "$merge_status" -eq 0 ] && [ "$playwright_status" -eq 0 ]
