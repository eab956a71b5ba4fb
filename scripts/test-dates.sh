#!/usr/bin/env bash
# The date-sensitive suites under faketime, at each date a calendar breaks on (docs/testing.md#the-clock):
# a year after today, New Year's Day (UTC just past midnight: still 31 December in New York), a leap
# day, and the two DST changes of America/New_York. One line per date; the first failing date's exit
# code is the script's. Usage: scripts/test-dates.sh [vitest file or folder ...]
set -uo pipefail
cd "$(dirname "$0")/.."
command -v faketime >/dev/null 2>&1 || { echo "test-dates: faketime is missing (Debian: apt-get install faketime)" >&2; exit 69; }
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
export PAYEXPORT_PYTHON="${PAYEXPORT_PYTHON:-/usr/bin/python3}"

# The suites that read the wall clock: the units (periods, windows, zones, the clock itself), the
# price cache and its sources, and the CLI commands whose answer depends on the day — init's month,
# nightly's yesterday, a month or range not yet over, doctor's price window and clock check, the
# price fetch up to now, the demo's month-end, a run of the first hour.
suites=("$@")
[ "${#suites[@]}" -gt 0 ] || suites=(
  test/unit test/property test/integration/prices
  test/cli/init.test.ts test/cli/init-books.test.ts test/cli/init-input.test.ts test/cli/init-terminal.test.ts
  test/cli/doctor.test.ts test/cli/doctor-fixes.test.ts test/cli/config-discovery.test.ts
  test/cli/prices.test.ts test/cli/prices-month-end.test.ts
  test/cli/jobs-no-db.test.ts test/cli/jobs-pg.test.ts test/cli/exit-codes.test.ts test/cli/demo.test.ts
  test/cli/first-hour.test.ts
)

next_year=$(date -u -d '+1 year' +%Y-%m-%dT12:00:00Z)
dates=(
  "$next_year"
  "$(date -u -d '+1 year' +%Y)-01-01T00:30:00Z"
  "2028-02-29T12:00:00Z"
  "2027-03-14T07:30:00Z"
  "2027-11-07T06:30:00Z"
)
status=0
npm run -s build || exit $?
for at in "${dates[@]}"; do
  log=$(mktemp)
  # an offset from the real clock: every process of the run (vitest, the simulator it hosts, each CLI
  # child) reads the same moved clock, ticking. '@' would start each process's clock at that instant
  # when it starts: a child started a minute into the run would read a minute behind its test.
  fake="+$(( $(date -u -d "$at" +%s) - $(date -u +%s) ))s"
  seen=$(faketime -f "$fake" node -e 'process.stdout.write(new Date().toISOString().slice(0, 13))')
  [ "$seen" = "${at:0:13}" ] || { echo "test-dates: faketime did not move Node's clock to $at (it read $seen)" >&2; exit 70; }
  faketime -f "$fake" npx vitest run "${suites[@]}" >"$log" 2>&1
  code=$?
  summary=$(sed -E 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^\s*Tests\s' | tail -1 | sed -E 's/^\s+//')
  if [ "$code" -eq 0 ]; then
    echo "test-dates: $at passed ($summary)"
  else
    echo "test-dates: $at FAILED ($summary); log: $log"
    [ "$status" -eq 0 ] && status=$code
    continue
  fi
  rm -f "$log"
done
exit "$status"
