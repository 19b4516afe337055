#!/usr/bin/env bash
# Runs the demo job end to end on this machine: installs what prewarm needs (Debian packages),
# builds prewarm, starts the demo origin on 127.0.0.1:18080 (serving Debian's wallpapers), runs
# `prewarm run jobs/demo.yaml` into ./demo-cache, writes demo-report.json, then runs it again to
# show the warm path (every URL `cached`). Extra arguments go to `prewarm run`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps.sh
swift build -c release --product prewarm >&2
swift build -c release --product prewarm-demo-origin >&2
bin=$(swift build -c release --show-bin-path)

"$bin/prewarm-demo-origin" --root /usr/share/backgrounds --port 18080 &
origin=$!
trap 'kill $origin 2>/dev/null; wait $origin 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  (echo > /dev/tcp/127.0.0.1/18080) 2>/dev/null && break
  sleep 0.1
done

echo "== first run: fetch, decode once, write variants" >&2
"$bin/prewarm" run jobs/demo.yaml --cache ./demo-cache --report demo-report.json "$@"
echo "== second run: the warm path" >&2
"$bin/prewarm" run jobs/demo.yaml --cache ./demo-cache "$@"
