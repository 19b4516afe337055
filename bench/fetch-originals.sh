#!/usr/bin/env bash
# Issue "warm run end to end": store originals only (avoid_decode), 1,200 URLs of real images on
# nginx (loopback), prewarm at concurrency 3 and 32 beside aria2c -j3 / -j32 on the same URL list.
# Target: prewarm's wall time ≤ aria2c's at both settings. Usage: bash bench/fetch-originals.sh [COUNT]
source "$(dirname "$0")/lib.sh"
count=${1:-1200}
build_prewarm
make_corpus "$count"
start_nginx
ls "$work/corpus" | sed "s|^|$origin/|" > "$work/urls.txt"
echo "corpus: $count URLs, $(du -sh "$work/corpus" | cut -f1) of real images; nginx on $origin" >&2

for n in 3 32; do
  cat > "$work/fetch-$n.yaml" <<YAML
version: 1
job: bench-fetch-$n
defaults:
  concurrency: $n
  per_host: $n
  options: [avoid_decode]
groups:
  - name: corpus
    url_file: $work/urls.txt
YAML
  rm -rf "$work/cache-$n" "$work/aria-$n"
  measure "prewarm -c $n" "$prewarm" run "$work/fetch-$n.yaml" --cache "$work/cache-$n" --progress none --quiet
  measure "aria2c -j$n" aria2c -q -i "$work/urls.txt" -j "$n" -d "$work/aria-$n" \
    --file-allocation=none --allow-overwrite=true --auto-file-renaming=false
  stored=$(find "$work/cache-$n/v1" -type f ! -name '*.meta' | wc -l)
  echo "  prewarm stored $stored originals; aria2c stored $(ls "$work/aria-$n" | wc -l) files" >&2
done
