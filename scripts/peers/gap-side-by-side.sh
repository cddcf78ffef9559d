#!/usr/bin/env bash
# gap-side-by-side.sh: gearbox's CPU backend against the GAP Benchmark Suite
# (github.com/sbeamer/gapbs) on BFS, SSSP and CC, same graphs, same sources.
#
# usage: scripts/peers/gap-side-by-side.sh [GAPDIR [GEARBOX]]
#
#   GAPDIR   a GAP checkout (its Makefile and src/); env GAP_DIR
#   GEARBOX  a gearbox binary (no Go needed where this runs); env GEARBOX
#
# env (defaults in brackets):
#   THREADS [nproc]    OMP_NUM_THREADS for GAP and --workers for gearbox
#   ROUNDS [6]         interleaved rounds: each round runs gearbox then GAP on
#                      every kernel x graph
#   SOURCES [8]        sources per graph (BFS, SSSP): gearbox's seeded sources,
#                      passed to GAP with -r
#   REPEAT [3]         runs per source (or per CC call) in each process; the
#                      first run of each process is dropped (warm-up)
#   GRAPHS             graph names, default "kron:20 urand:20 grid:1024:1024
#                      email-Enron cal.cedge rome99"
#   KERNELS [bfs sssp cc]
#   DATASETS           where email-Enron.txt, cal.cedge, rome99.gr are; default
#                      the first of shared/datasets, ../shared/datasets,
#                      /work/shared/datasets that exists
#   SCRATCH [$TMPDIR/gap-side-by-side]  GAP build, graph files, raw logs
#   GAP_DELTAS         SSSP deltas GAP is calibrated over (best per graph, on
#                      the first source), largest first: the sweep stops once a
#                      delta is 3x slower than the best (small deltas on long
#                      weights make GAP walk millions of empty buckets);
#                      default powers of two 2^20..1
#   GAP_CC [cc]        GAP's CC binary: cc (Afforest) or cc_sv
#   GEARBOX_ARGS       extra flags for every gearbox run (e.g. --thresholds F)
#   GEARBOX_B          a second gearbox binary (say, a change against its
#                      base): run right after the first in every round, with
#                      its own columns (gearbox-b) in the table
#
# Files: gearbox writes each graph once as a .wel (its own writer; GAP reads
# .wel), then each system converts that file to its own binary form (gearbox
# .gbx, GAP .sg/.wsg), so both load the same arcs, weights and vertex ids.
# Undirected graphs are symmetrized on both sides (--undirected, GAP -s).
# Times are each system's own kernel timer (gearbox's per-run wall time, GAP's
# Trial Time); a kernel x graph cell is the mean over sources of the median of
# each source's warm runs over all rounds.
set -euo pipefail

GAP_DIR=${1:-${GAP_DIR:-}}
GEARBOX=${2:-${GEARBOX:-}}
if [[ -z "$GAP_DIR" || -z "$GEARBOX" ]]; then
	sed -n '2,12p' "$0" >&2
	exit 2
fi
[[ -f "$GAP_DIR/Makefile" && -d "$GAP_DIR/src" ]] || { echo "gap-side-by-side: $GAP_DIR is not a GAP checkout (no Makefile or src/)" >&2; exit 2; }
[[ -x "$GEARBOX" ]] || { echo "gap-side-by-side: $GEARBOX is not an executable" >&2; exit 2; }
GAP_DIR=$(cd "$GAP_DIR" && pwd)
GEARBOX=$(cd "$(dirname "$GEARBOX")" && pwd)/$(basename "$GEARBOX")

THREADS=${THREADS:-$(nproc)}
ROUNDS=${ROUNDS:-6}
SOURCES=${SOURCES:-8}
REPEAT=${REPEAT:-3}
GRAPHS=${GRAPHS:-"kron:20 urand:20 grid:1024:1024 email-Enron cal.cedge rome99"}
KERNELS=${KERNELS:-"bfs sssp cc"}
if [[ -z "${DATASETS:-}" ]]; then
	for d in shared/datasets ../shared/datasets /work/shared/datasets; do
		if [[ -d $d ]]; then DATASETS=$(cd "$d" && pwd) && break; fi
	done
fi
DATASETS=${DATASETS:-/work/shared/datasets}
SCRATCH=${SCRATCH:-${TMPDIR:-/tmp}/gap-side-by-side}
GAP_DELTAS=${GAP_DELTAS:-"$(for ((e = 20; e >= 0; e--)); do printf "%d " $((1 << e)); done)"}
GAP_CC=${GAP_CC:-cc}
read -r -a EXTRA <<<"${GEARBOX_ARGS:-}"
export OMP_NUM_THREADS=$THREADS

mkdir -p "$SCRATCH/graphs" "$SCRATCH/raw"
RAW=$SCRATCH/raw
log() { echo "[$(date +%H:%M:%S)] $*" >&2; }

# --- GAP, built with its own Makefile outside any checkout -------------------
BUILD=$SCRATCH/gapbs
if [[ ! -x "$BUILD/$GAP_CC" || ! -x "$BUILD/converter" || "$GAP_DIR/src/bfs.cc" -nt "$BUILD/bfs" ]]; then
	log "building GAP from $GAP_DIR in $BUILD"
	rm -rf "$BUILD" && mkdir -p "$BUILD"
	(cd "$GAP_DIR" && tar --exclude=.git -cf - .) | tar -xf - -C "$BUILD"
	make -C "$BUILD" -j"$THREADS" bfs sssp "$GAP_CC" converter >"$RAW/gap-build.log" 2>&1 ||
		{ cat "$RAW/gap-build.log" >&2; exit 1; }
fi

# --- graph files ---------------------------------------------------------------
# input NAME: the gearbox flags that read or generate it, and how its weights
# become integers both systems read
input() {
	case $1 in
	kron:* | urand:*) echo "--gen $1 --derive-weights" ;; # SSSP's own derived weights, written out
	grid:*) echo "--gen $1" ;;
	email-Enron) echo "--graph $DATASETS/email-Enron.txt --derive-weights" ;;
	cal.cedge) echo "--graph $DATASETS/cal.cedge --weight-scale 1000000" ;; # float lengths 0.0005..0.3
	rome99) echo "--graph $DATASETS/rome99.gr" ;;
	*) echo "gap-side-by-side: unknown graph $1" >&2; return 1 ;;
	esac
}

prepare() { # NAME -> files under $SCRATCH/graphs/<safe name>.*
	local name=$1 base sym
	base=$SCRATCH/graphs/${name//:/_}
	if [[ -s "$base.gbx" && -s "$base.sg" && -s "$base.wsg" && -f "$base.sym" ]]; then return; fi
	log "writing $name"
	# shellcheck disable=SC2046
	"$GEARBOX" convert $(input "$name") "$base.wel.tmp" --to wel 2>>"$RAW/convert.log" ||
		{ tail -3 "$RAW/convert.log" >&2; exit 1; }
	mv "$base.wel.tmp" "$base.wel"
	# shellcheck disable=SC2046
	if "$GEARBOX" info $(input "$name" | sed 's/--derive-weights//') 2>/dev/null | grep -Eq '^graph +undirected'; then sym=1; else sym=0; fi
	local gflag=() sflag=()
	if ((sym)); then gflag=(--undirected); sflag=(-s); fi
	"$GEARBOX" convert "$base.wel" "$base.gbx" "${gflag[@]}" 2>>"$RAW/convert.log"
	"$BUILD/converter" -f "$base.wel" "${sflag[@]}" -b "$base.sg" >>"$RAW/convert.log"
	"$BUILD/converter" -f "$base.wel" "${sflag[@]}" -w -b "$base.wsg" >>"$RAW/convert.log"
	rm -f "$base.wel"
	echo "$sym" >"$base.sym"
}

# gearbox's seeded sources (file ids = GAP ids: both read the same .wel ids)
sources_of() { # BASE
	"$GEARBOX" run bfs --graph "$1.gbx" --sources "$SOURCES" --json --workers "$THREADS" "${EXTRA[@]}" 2>/dev/null |
		awk '/"sources": \[/{on=1; next} on && /\]/{exit} on{gsub(/[ ,]/,""); print}'
}

# --- runs; raw lines: system kernel graph source time_ms ------------------------
TIMES=$RAW/times.txt
: >"$TIMES"

run_gearbox() { # KERNEL NAME BASE [BINARY LABEL]
	local k=$1 name=$2 base=$3 bin=${4:-$GEARBOX} label=${5:-gearbox} args=()
	if [[ $k != cc ]]; then args=(--sources "$SOURCES"); fi
	"$bin" run "$k" --graph "$base.gbx" "${args[@]}" --repeat "$REPEAT" --workers "$THREADS" --json "${EXTRA[@]}" 2>>"$RAW/gearbox.log" >"$RAW/last.json"
	awk -v k="$k" -v g="$name" -v sys="$label" '
		/"sources": \[/ {s=1; next} s && /\]/ {s=0; next} s {gsub(/[ ,]/,""); src[ns++]=$0; next}
		/"times_ms": \[/ {t=1; next} t && /\]/ {t=0; next} t {gsub(/[ ,]/,""); tm[nt++]=$0}
		END { for (i = 1; i < nt; i++) printf "%s %s %s %s %s\n", sys, k, g, (ns ? src[i] : "-"), tm[i] }' "$RAW/last.json" >>"$TIMES"
}

run_gap() { # KERNEL NAME BASE SOURCE DELTA
	local k=$1 name=$2 base=$3 s=$4 d=$5 out
	case $k in
	bfs) out=$("$BUILD/bfs" -f "$base.sg" -r "$s" -n "$REPEAT") ;;
	sssp) out=$("$BUILD/sssp" -f "$base.wsg" -r "$s" -n "$REPEAT" -d "$d") ;;
	cc) out=$("$BUILD/$GAP_CC" -f "$base.sg" -n "$REPEAT") ;;
	esac
	echo "$out" | awk -v k="$k" -v g="$name" -v s="$s" '/^Trial Time:/ { if (n++) printf "gap %s %s %s %.6f\n", k, g, s, $3 * 1000 }' >>"$TIMES"
}

best_delta() { # BASE SOURCE: GAP's fastest delta on this graph
	local base=$1 s=$2 d best=1 bt=
	for d in $GAP_DELTAS; do
		local t
		t=$("$BUILD/sssp" -f "$base.wsg" -r "$s" -n 3 -d "$d" | awk '/^Trial Time:/ { if (n++) sum += $3 } END { printf "%.6f", sum / (n - 1) }')
		if [[ -z "$bt" ]] || awk -v a="$t" -v b="$bt" 'BEGIN { exit !(a < b) }'; then
			bt=$t best=$d
		elif awk -v a="$t" -v b="$bt" 'BEGIN { exit !(a > 3 * b) }'; then
			break
		fi
	done
	echo "$best"
}

declare -A SRC DELTA
for name in $GRAPHS; do
	prepare "$name"
	base=$SCRATCH/graphs/${name//:/_}
	SRC[$name]=$(sources_of "$base" | tr '\n' ' ')
	if [[ " $KERNELS " == *" sssp "* ]]; then
		DELTA[$name]=$(best_delta "$base" "${SRC[$name]%% *}")
		log "$name: sources ${SRC[$name]}; GAP's best SSSP delta ${DELTA[$name]}"
	fi
done

for ((r = 1; r <= ROUNDS; r++)); do
	log "round $r/$ROUNDS"
	for name in $GRAPHS; do
		base=$SCRATCH/graphs/${name//:/_}
		for k in $KERNELS; do
			run_gearbox "$k" "$name" "$base"
			if [[ -n "${GEARBOX_B:-}" ]]; then run_gearbox "$k" "$name" "$base" "$GEARBOX_B" gearbox-b; fi
			if [[ $k == cc ]]; then
				run_gap cc "$name" "$base" - 0
			else
				for s in ${SRC[$name]}; do run_gap "$k" "$name" "$base" "$s" "${DELTA[$name]:-1}"; done
			fi
		done
	done
done

# --- table -----------------------------------------------------------------------
{
	echo "gearbox: $GEARBOX: $("$GEARBOX" version 2>/dev/null | head -1)"
	if [[ -n "${GEARBOX_B:-}" ]]; then echo "gearbox-b: $GEARBOX_B: $("$GEARBOX_B" version 2>/dev/null | head -1)"; fi
	echo "GAP: $GAP_DIR ($(git -C "$GAP_DIR" rev-parse --short HEAD 2>/dev/null || echo "no git"); CC: $GAP_CC, SSSP at its best delta per graph)"
	echo "$(nproc) CPUs here, THREADS=$THREADS, ROUNDS=$ROUNDS, SOURCES=$SOURCES, REPEAT=$REPEAT (first run of each process dropped)"
	echo
} >&2
awk -v graphs="$GRAPHS" -v kernels="$KERNELS" -v systems="gearbox${GEARBOX_B:+ gearbox-b}" -v deltas="$(for n in $GRAPHS; do printf '%s=%s ' "$n" "${DELTA[$n]:-}"; done)" '
	function ms(x) { return sprintf(x < 1 ? "%.3f" : (x < 10 ? "%.2f" : "%.1f"), x) }
	function median(key,   n, i, j, a, t) {
		n = split(vals[key], a, " ")
		for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ key = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4; vals[key] = vals[key] " " $5; if (!((key) in seen)) { seen[key] = 1; srcs[$1, $2, $3] = srcs[$1, $2, $3] " " $4 } }
	END {
		ng = split(graphs, G, " "); nk = split(kernels, K, " "); ns = split(systems, Y, " "); split(deltas, D, " ")
		for (i in D) { split(D[i], kv, "="); delta[kv[1]] = kv[2] }
		hdr = "| graph |"; sep = "|---|"
		for (j = 1; j <= nk; j++) for (y = 1; y <= ns; y++) { hdr = hdr " " toupper(K[j]) " " Y[y] " / GAP (ms) | ratio |"; sep = sep "---|---|" }
		print hdr; print sep
		for (i = 1; i <= ng; i++) {
			line = "| " G[i] " |"
			for (j = 1; j <= nk; j++) for (y = 1; y <= ns; y++) {
				for (s = 0; s < 2; s++) {
					sys = s ? "gap" : Y[y]; m[s] = ""
					n = split(srcs[sys, K[j], G[i]], S, " "); sum = 0
					for (x = 1; x <= n; x++) sum += median(sys SUBSEP K[j] SUBSEP G[i] SUBSEP S[x])
					if (n) m[s] = sum / n
				}
				if (m[0] == "" || m[1] == "") { line = line " - | - |"; continue }
				r = m[0] / m[1]
				cell = ms(m[0]) " / " ms(m[1])
				if (K[j] == "sssp" && delta[G[i]] != "") cell = cell " (GAP delta " delta[G[i]] ")"
				line = line " " cell " | " (r > 1 ? sprintf("**%.2f**", r) : sprintf("%.2f", r)) " |"
			}
			print line
		}
	}' "$TIMES"
