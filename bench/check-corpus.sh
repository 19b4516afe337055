#!/usr/bin/env bash
# Issue "decode once, write every variant" — checks over every real image we have (Debian's
# mate-backgrounds, gnome-backgrounds and the afl++-doc image seeds), served by nginx:
#  1. contain / cover / fill variants open in vipsheader (an independent decoder) with exactly the
#     expected dimensions;
#  2. quality: the 320-wide contain variant (PNG, so only the resize is compared) has PSNR ≥ 30 dB
#     against vipsthumbnail's output of the same size (ImageMagick's `compare -metric PSNR`);
#  3. a PNG whose header claims 50,000 × 50,000 fails as too_many_pixels with peak RSS < 64 MB.
# Usage: bash bench/check-corpus.sh
source "$(dirname "$0")/lib.sh"
build_prewarm
rm -rf "$work/corpus"; mkdir -p "$work/corpus"
find /usr/share/backgrounds /usr/share/doc/afl++-doc/afl/testcases/images -type f \
  \( -name '*.jpg' -o -name '*.png' -o -name '*.webp' -o -name '*.gif' \) | sort | while read -r f; do
  cp "$f" "$work/corpus/$(echo "$f" | tr '/' '_' | sed 's/^_//')"
done
start_nginx
ls "$work/corpus" | sed "s|^|$origin/|" > "$work/check-urls.txt"
echo "corpus: $(wc -l < "$work/check-urls.txt") images" >&2
cat > "$work/check.yaml" <<YAML
version: 1
job: check-corpus
defaults:
  concurrency: 3
  variants:
    - { name: contain, width: 300, height: 200, fit: contain, format: png }
    - { name: cover, width: 300, height: 200, fit: cover, format: webp }
    - { name: fill, width: 123, height: 77, fit: fill, format: jpeg }
    - { name: w320, width: 320, fit: contain, format: png, enlarge: true }
groups:
  - { name: all, url_file: $work/check-urls.txt }
YAML
rm -rf "$work/check-cache"
"$prewarm" run "$work/check.yaml" --cache "$work/check-cache" --progress none --quiet --events "$work/check-events.ndjson" \
  || { echo "FAIL: the run did not finish cleanly" >&2; exit 1; }
python3 - "$work" <<'PY'
import json, subprocess, sys, os
work = sys.argv[1]
def header(field, path):
    return int(subprocess.check_output(["vipsheader", "-f", field, path], stderr=subprocess.DEVNULL).strip().split()[0])
failures, psnrs, rounding = [], [], []
for line in open(f"{work}/check-events.ndjson"):
    event = json.loads(line)
    name = event["url"].rsplit("/", 1)[1]
    source = f"{work}/corpus/{name}"
    w, h = header("width", source), header("height", source)
    # vipsheader reports the stored size; EXIF-rotated JPEGs would swap (none in this corpus).
    scale = min(300 / w, 200 / h, 1)
    expected = {"contain": (max(1, round(w * scale)), max(1, round(h * scale))),
                # enlarge: false caps each axis at the source's (the codec's documented rule).
                "cover": (min(300, w), min(200, h)), "fill": (min(123, w), min(77, h)),
                "w320": (320, max(1, round(h * 320 / w)))}
    for variant, path in event.get("variants", {}).items():
        got = (header("width", path), header("height", path))
        if got != expected[variant]:
            failures.append(f"{name} {variant}: {got} != {expected[variant]}")
    reference = f"{work}/vips-{name}.png"
    subprocess.check_call(["vipsthumbnail", source, "-s", "320x", "-o", reference],
                          stderr=subprocess.DEVNULL)
    ours = event["variants"]["w320"]
    ours_size = (header("width", ours), header("height", ours))
    theirs = (header("width", reference), header("height", reference))
    if theirs != ours_size:
        # We round the kept-aspect side to nearest (1203 × 320/1600 = 240.6 → 241); vipsthumbnail
        # can land 1 px lower. Compare at the same size: vipsthumbnail forced to ours.
        if max(abs(a - b) for a, b in zip(theirs, ours_size)) > 1:
            failures.append(f"{name}: vipsthumbnail {theirs} vs ours {ours_size}")
            continue
        rounding.append(f"{name}: ours {ours_size[0]}x{ours_size[1]}, vipsthumbnail {theirs[0]}x{theirs[1]}")
        subprocess.check_call(["vipsthumbnail", source, "-s", f"{ours_size[0]}x{ours_size[1]}!", "-o", reference],
                              stderr=subprocess.DEVNULL)
    out = subprocess.run(["compare", "-metric", "PSNR", ours, reference, "null:"], capture_output=True, text=True)
    value = out.stderr.strip().split()[0]
    psnr = float("inf") if value == "inf" else float(value)
    psnrs.append((psnr, name))
    if psnr < 30: failures.append(f"{name}: PSNR {psnr:.1f} dB < 30")
psnrs.sort()
print(f"  {len(psnrs)} images: variant sizes checked with vipsheader; PSNR vs vipsthumbnail min {psnrs[0][0]:.1f} dB ({psnrs[0][1]}), median {psnrs[len(psnrs)//2][0]:.1f} dB", file=sys.stderr)
for r in rounding: print("  1 px rounding difference: " + r, file=sys.stderr)
for f in failures: print("  FAIL " + f, file=sys.stderr)
sys.exit(1 if failures else 0)
PY
# 3. The decompression bomb: a valid PNG header claiming 50,000 × 50,000 RGBA.
python3 - "$work/corpus/bomb.png" <<'PY'
import struct, sys, zlib
ihdr = b"IHDR" + struct.pack(">IIBBBBB", 50000, 50000, 8, 6, 0, 0, 0)
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + ihdr + struct.pack(">I", zlib.crc32(ihdr)) + b"\0" * 4096)
PY
cat > "$work/bomb.yaml" <<YAML
version: 1
job: bomb
defaults:
  variants: [{ name: v, width: 320 }]
groups:
  - { name: bomb, urls: ["$origin/bomb.png"] }
YAML
rm -rf "$work/bomb-cache"
/usr/bin/time -f '%M' -o "$work/bomb-rss.txt" "$prewarm" run "$work/bomb.yaml" --cache "$work/bomb-cache" --progress none --quiet --events "$work/bomb.ndjson" || true
rss_kb=$(tail -1 "$work/bomb-rss.txt")  # time prepends a line when the exit code is non-zero
reason=$(python3 -c "import json;print(json.loads(open('$work/bomb.ndjson').readline()).get('reason'))")
echo "  50,000×50,000 PNG: $reason, peak RSS $((rss_kb / 1024)) MB" >&2
[ "$reason" = too_many_pixels ] && [ "$rss_kb" -lt 65536 ] || { echo "FAIL: bomb" >&2; exit 1; }
echo "corpus checks passed" >&2
