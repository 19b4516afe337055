#!/usr/bin/env bash
# Issue "cache as a shared, lasting store": a COUNT-URL manifest (url_file) over a fully warm cache
# — the skip path of every scheduled re-run. Target: ≥ 100,000 URLs/s with peak RSS ≤ 150 MB.
# The floor beside it: `find CACHE -type f | wc -l` on the same cache.
# Usage: bash bench/skip-path.sh [COUNT]
source "$(dirname "$0")/lib.sh"
count=${1:-100000}
build_prewarm
make_corpus 1 200000
start_nginx
# COUNT unique URLs of one small image (nginx ignores the query; the cache key keeps it).
seq 0 $((count - 1)) | sed "s|^|$origin/img-0.jpg?n=|" > "$work/skip-urls.txt"
if [ ! -f "$work/corpus/img-0.jpg" ]; then mv "$work"/corpus/img-0.* "$work/corpus/img-0.jpg"; fi
cat > "$work/skip.yaml" <<YAML
version: 1
job: bench-skip
defaults:
  concurrency: 64
  per_host: 64
  options: [avoid_decode]
groups:
  - name: all
    url_file: $work/skip-urls.txt
YAML
rm -rf "$work/skip-cache"
echo "warming $count URLs (once)..." >&2
"$prewarm" run "$work/skip.yaml" --cache "$work/skip-cache" --progress none --quiet
echo "warm re-run over $count cached URLs:" >&2
measure "prewarm warm re-run" "$prewarm" run "$work/skip.yaml" --cache "$work/skip-cache" --progress none --quiet --report "$work/skip-report.json"
read -r wall _ < "$work/time-prewarm warm re-run.txt"
awk -v n="$count" -v t="$wall" 'BEGIN { printf "  %d URLs in %.2f s = %.0f URLs/s\n", n, t, n / t }'
measure "find | wc -l (floor)" bash -c "find '$work/skip-cache' -type f | wc -l"
grep -o '"cached" : [0-9]*' "$work/skip-report.json" | head -1
