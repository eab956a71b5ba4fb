#!/usr/bin/env bash
# What `npm run test:faults` and `npm run soak` need beyond `npm test`: libfaketime (PROC-15, the
# clock stepping under a run). Idempotent; installs only as root and only when missing; without
# it the clock case skips and says why.
set -euo pipefail
if [ ! -e /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing faketime" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends faketime >/dev/null 2>&1 ||
    { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends faketime >/dev/null; } ||
    echo "could not install faketime: the clock case will skip" >&2
fi
