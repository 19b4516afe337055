#!/usr/bin/env bash
# Issue "cache as a shared, lasting store" — the three stress checks, on real images over nginx:
#  1. kill -9 a run at 20 random moments; after each, `prewarm cache verify` finds nothing corrupt;
#     then a re-run finishes the job.
#  2. four processes warming overlapping manifests into one cache at once: every entry verifies,
#     every URL's entries are complete, the counts across the reports add up.
#  3. max_size 50MiB over a ~200 MB corpus: sampled while it runs, and at the end.
# Exits non-zero on the first broken promise. Usage: bash bench/cache-safety.sh
source "$(dirname "$0")/lib.sh"
build_prewarm
make_corpus 240 2200000
start_nginx
ls "$work/corpus" | sed "s|^|$origin/|" > "$work/safety-urls.txt"
echo "corpus: 240 URLs, $(du -sh "$work/corpus" | cut -f1)" >&2
fail() { echo "FAIL: $*" >&2; exit 1; }

manifest() { # NAME URL_FILE EXTRA_CACHE_YAML [OPTIONS]
  cat > "$work/$1.yaml" <<YAML
version: 1
job: $1
cache: { $3 }
defaults:
  concurrency: 4
  options: [${4:-}]
  variants: [{ name: thumb, width: 160, height: 160, fit: cover, format: webp }]
groups:
  - { name: all, url_file: $2 }
YAML
}

echo "== 1. kill -9 at 20 random moments" >&2
manifest crash "$work/safety-urls.txt" ""
# The killed runs overwrite every entry (from_loader_only), so each kill lands on writes in progress
# over a cache that already holds entries; the final re-run is the plain job.
manifest crash-force "$work/safety-urls.txt" "" from_loader_only
rm -rf "$work/crash-cache"
for i in $(seq 1 20); do
  "$prewarm" run "$work/crash-force.yaml" --cache "$work/crash-cache" --progress none --quiet &
  pid=$!
  sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.05 + (r % 150) / 100 }')"
  kill -9 $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
  "$prewarm" cache verify --cache "$work/crash-cache" >/dev/null 2>"$work/verify.txt" || fail "verify after kill $i: $(cat "$work/verify.txt")"
  printf '  kill %2d: %s\n' "$i" "$(cat "$work/verify.txt")" >&2
done
"$prewarm" run "$work/crash.yaml" --cache "$work/crash-cache" --progress none --quiet --report "$work/crash-final.json" \
  || fail "the re-run after the kills did not finish cleanly"
python3 - "$work/crash-final.json" <<'PY' || fail "re-run totals"
import json, sys
t = json.load(open(sys.argv[1]))["totals"]
assert t["finished"] == t["urls"] == 240 and t["failed"] == 0, t
print(f"  re-run: {t['fetched']} fetched, {t['cached']} cached, 0 failed", file=sys.stderr)
PY
"$prewarm" cache stats --cache "$work/crash-cache" | sed 's/^/  /' >&2

echo "== 2. four processes, overlapping manifests, one cache" >&2
rm -rf "$work/shared-cache"
for k in 0 1 2 3; do
  # Each takes 120 URLs starting at k*40: neighbours overlap by 80.
  tail -n +$((k * 40 + 1)) "$work/safety-urls.txt" | head -n 120 > "$work/part-$k.txt"
  manifest "part$k" "$work/part-$k.txt" ""
done
pids=()
for k in 0 1 2 3; do
  "$prewarm" run "$work/part$k.yaml" --cache "$work/shared-cache" --progress none --quiet --report "$work/part-$k.json" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || fail "a concurrent writer failed"; done
"$prewarm" cache verify --cache "$work/shared-cache" 2>&1 | sed 's/^/  /' >&2
"$prewarm" cache verify --cache "$work/shared-cache" >/dev/null 2>&1 || fail "verify after concurrent writers"
cat "$work"/part-*.txt | sort -u > "$work/unique.txt"
missing=0
while read -r url; do
  "$prewarm" cache path "$url" --cache "$work/shared-cache" >/dev/null 2>&1 || missing=$((missing + 1))
  "$prewarm" cache path "$url" --variant thumb --manifest "$work/part0.yaml" --cache "$work/shared-cache" >/dev/null 2>&1 || missing=$((missing + 1))
done < "$work/unique.txt"
[ "$missing" -eq 0 ] || fail "$missing entries missing after the concurrent run"
python3 - "$(wc -l < "$work/unique.txt")" "$work"/part-*.json <<'PY' || fail "report counts"
import json, sys
unique = int(sys.argv[1])
totals = [json.load(open(p))["totals"] for p in sys.argv[2:]]
urls = sum(t["urls"] for t in totals)
ended = sum(t["fetched"] + t["cached"] for t in totals)
fetched = sum(t["fetched"] for t in totals)
assert all(t["failed"] == 0 and t["finished"] == t["urls"] for t in totals), totals
assert ended == urls == 480, (ended, urls)
assert fetched >= unique, (fetched, unique)
print(f"  {urls} URL runs over {unique} unique URLs: {fetched} fetched (overlap fetched twice at most by racing writers), {ended - fetched} cached; every entry present", file=sys.stderr)
PY

echo "== 3. max_size 50MiB over the corpus" >&2
manifest capped "$work/safety-urls.txt" "max_size: 50MiB"
rm -rf "$work/capped-cache"
"$prewarm" run "$work/capped.yaml" --cache "$work/capped-cache" --progress none --quiet &
pid=$!
peak=0
while kill -0 $pid 2>/dev/null; do
  size=$( (du -sb "$work/capped-cache/v1" 2>/dev/null || true) | cut -f1); size=${size:-0}
  [ "$size" -gt "$peak" ] && peak=$size
  sleep 0.05
done
wait $pid || fail "capped run failed"
final=$(du -sb "$work/capped-cache/v1" | cut -f1)
limit=$((50 * 1024 * 1024))
largest=$(ls -S "$work/corpus" | head -1 | xargs -I{} stat -c %s "$work/corpus/{}")
echo "  corpus $(du -sb "$work/corpus" | cut -f1) bytes; cap $limit; peak seen $peak; at the end $final; in flight at most 4 × $largest" >&2
[ "$final" -le "$limit" ] || fail "cache above max_size at the end"
[ "$peak" -le $((limit + 4 * largest * 2)) ] || fail "cache overshot max_size by more than the bytes in flight"
echo "== 4. a full disk (a 1 MiB tmpfs; needs root)" >&2
full="$work/full-disk"
mkdir -p "$full"
if mount -t tmpfs -o size=1m tmpfs "$full" 2>/dev/null; then
  manifest fulldisk "$work/safety-urls.txt" "" avoid_decode
  code=0
  "$prewarm" run "$work/fulldisk.yaml" --cache "$full/cache" --progress none --quiet --report "$work/full.json" 2>"$work/full-err.txt" || code=$?
  leftovers=$(find "$full/cache/tmp" -type f | wc -l)
  "$prewarm" cache verify --cache "$full/cache" >/dev/null 2>&1 || { umount "$full"; fail "a corrupt entry after the disk filled"; }
  umount "$full"
  [ "$code" -eq 3 ] || fail "disk full should exit 3, got $code"
  [ "$leftovers" -eq 0 ] || fail "$leftovers temp files left after disk full"
  grep -q "disk full" "$work/full-err.txt" || fail "no clear disk-full message"
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['exit_code']==3 and r['totals']['finished']==r['totals']['urls']" "$work/full.json" \
    || fail "the report after disk full"
  echo "  exit 3, '$(grep -m1 -o 'disk full[^;]*' "$work/full-err.txt")', report flushed, every entry verifies, no temp files" >&2
else
  echo "  skipped: cannot mount a tmpfs here (not root?)" >&2
fi
echo "all cache promises held" >&2
