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

# The suites that read the wall clock: the CLI as a subprocess (init's month, nightly's day, doctor's
# price window, locks), the price cache and its sources, and the units that compute periods.
suites=("$@")
[ "${#suites[@]}" -gt 0 ] || suites=(test/cli test/integration/prices test/unit/cli test/unit/util test/unit/model test/unit/prices test/unit/setup)

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
  # '@': the clock starts at that instant and ticks (a frozen clock would stall every timer)
  faketime -f "@$(date -u -d "$at" '+%Y-%m-%d %H:%M:%S')" npx vitest run "${suites[@]}" >"$log" 2>&1
  code=$?
  summary=$(grep -E '^\s*Tests\s' "$log" | tail -1 | sed -E 's/\x1b\[[0-9;]*m//g; s/^\s+//')
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
