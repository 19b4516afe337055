#!/usr/bin/env bash
# Issue "decode once, write every variant": every real image in Debian's mate-backgrounds and
# gnome-backgrounds, × TIMES unique URLs on nginx, two variants each (320×320 cover webp q80,
# 1280-wide contain jpeg q85), prewarm at concurrency 3 (and 64 for peak RSS) against the peer
# pipeline "aria2c -j3, then vipsthumbnail once per variant using both cores".
# Targets: prewarm wall ≤ 0.67 × the peer's; peak RSS ≤ 300 MB at 3 and ≤ 600 MB at 64.
# Usage: bash bench/variants.sh [TIMES]   (the issue's figure is TIMES=20)
source "$(dirname "$0")/lib.sh"
times=${1:-20}
build_prewarm
mapfile -t sources < <(find /usr/share/backgrounds -type f \( -name '*.jpg' -o -name '*.png' -o -name '*.webp' \) | sort)
make_corpus $(( ${#sources[@]} * times )) 100000000
start_nginx
ls "$work/corpus" | sed "s|^|$origin/|" > "$work/variant-urls.txt"
echo "corpus: $(wc -l < "$work/variant-urls.txt") URLs ($(du -sh "$work/corpus" | cut -f1)) from ${#sources[@]} real images" >&2

for n in 3 64; do
  cat > "$work/variants-$n.yaml" <<YAML
version: 1
job: bench-variants-$n
defaults:
  concurrency: $n
  per_host: $n
  variants:
    - { name: thumb, width: 320, height: 320, fit: cover, format: webp, quality: 80 }
    - { name: large, width: 1280, fit: contain, format: jpeg, quality: 85 }
groups:
  - name: corpus
    url_file: $work/variant-urls.txt
YAML
done

peer() {
  rm -rf "$work/peer"; mkdir -p "$work/peer/out"
  aria2c -q -i "$work/variant-urls.txt" -j 3 -d "$work/peer" --file-allocation=none \
    --allow-overwrite=true --auto-file-renaming=false
  find "$work/peer" -maxdepth 1 -type f -print0 | xargs -0 -P 2 -n 1 sh -c '
    base=$(basename "$1"); out='"$work/peer/out"'
    vipsthumbnail "$1" -s 320x320 --smartcrop centre -o "$out/${base%.*}-thumb.webp[Q=80]" &&
    vipsthumbnail "$1" -s "1280x>" -o "$out/${base%.*}-large.jpg[Q=85]"' sh
}

rm -rf "$work/vcache-3" "$work/vcache-64"
measure "prewarm -c 3 (2 variants)" "$prewarm" run "$work/variants-3.yaml" --cache "$work/vcache-3" --progress none --quiet
export -f peer; export work
measure "aria2c -j3 + vipsthumbnail" bash -c peer
echo "  peer wrote $(ls "$work/peer/out" | wc -l) variants; prewarm wrote $(find "$work/vcache-3/v1" -name '*.webp' -o -name '*.jpg' | wc -l) files (originals + variants)" >&2
measure "prewarm -c 64 (2 variants)" "$prewarm" run "$work/variants-64.yaml" --cache "$work/vcache-64" --progress none --quiet
