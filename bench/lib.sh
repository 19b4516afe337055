# Shared helpers for the benchmark scripts: a release build, an nginx on a free loopback port,
# and a corpus of real images (Debian's wallpapers) under unique paths.
set -euo pipefail
bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$bench_dir/.." && pwd)
work=${BENCH_WORK:-/dev/shm/prewarm-bench}
mkdir -p "$work"

build_prewarm() {
  (cd "$repo" && swift build -c release --product prewarm >&2)
  prewarm="$(cd "$repo" && swift build -c release --show-bin-path)/prewarm"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# make_corpus COUNT [MAX_BYTES]: COUNT unique paths (hard links) cycling over the real images no
# larger than MAX_BYTES, in $work/corpus; prints nothing, sets corpus_files.
make_corpus() {
  local count=$1 max=${2:-2200000}
  rm -rf "$work/corpus"; mkdir -p "$work/corpus"
  mapfile -t sources < <(find /usr/share/backgrounds -type f \( -name '*.jpg' -o -name '*.png' -o -name '*.webp' \) -size -"${max}"c | sort)
  local i=0
  while [ $i -lt "$count" ]; do
    local src=${sources[$((i % ${#sources[@]}))]}
    local ext=${src##*.}
    cp "$src" "$work/corpus/img-$i.$ext"
    i=$((i + 1))
  done
  corpus_files=$count
}

start_nginx() {
  nginx_port=$(free_port)
  mkdir -p "$work/nginx/logs"
  cat > "$work/nginx/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  types { image/jpeg jpg; image/png png; image/webp webp; }
  server {
    listen 127.0.0.1:$nginx_port;
    root $work/corpus;
  }
}
CONF
  nginx -c "$work/nginx/nginx.conf" -p "$work/nginx"
  trap stop_nginx EXIT
  origin="http://127.0.0.1:$nginx_port"
}

stop_nginx() {
  [ -f "$work/nginx/nginx.pid" ] && kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null || true
}

# measure LABEL COMMAND...: one run; prints "LABEL wall_s peak_rss_MB".
measure() {
  local label=$1; shift
  local out="$work/time-$label.txt"
  /usr/bin/time -f '%e %M' -o "$out" "$@" >/dev/null 2>"$work/stderr-$label.txt" || {
    echo "$label failed (exit $?): see $work/stderr-$label.txt" >&2; return 1; }
  read -r wall rss < <(tail -1 "$out")
  printf '%-28s %8.2f s %8.1f MB\n' "$label" "$wall" "$(awk "BEGIN{print $rss/1024}")"
}
