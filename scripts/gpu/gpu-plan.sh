#!/bin/bash
# gpu-plan.sh: measurement steps for one call on a GPU machine, run from the
# bundle that scripts/gpu/gpu-bundle.sh prepared (DIR, default .gpu):
#
#   bash .gpu/gpu-plan.sh tests     # build gearbox.fatbin with nvcc, run every cuda-tagged test
#   bash .gpu/gpu-plan.sh overhead  # tests, then inspection and conversion shares (exact timing)
#   bash .gpu/gpu-plan.sh bench [ARGS...]  # `gearbox bench` over BENCH_GRAPHS (extra bench ARGS allowed)
#   bash .gpu/gpu-plan.sh ab        # the bundled reference CLI (REF=<commit> gpu-bundle.sh) against
#                                   # this tree's, `gearbox run` interleaved round by round
#   bash .gpu/gpu-plan.sh ab-quick  # the A/B alone (no nvcc, no tests)
#
# Every step builds the fatbin first unless EMBEDDED=1 (the CLI's embedded
# kernels) or $OUT/gearbox.fatbin already exists. Output goes to $OUT/<step>/
# and $OUT/<step>.tgz; keep each step under the call's time limit with the
# graph lists and BENCH_LIMIT.
set -u
STEP=${1:?usage: gpu-plan.sh tests|overhead|bench|ab|ab-quick [bench args]}
shift
D=$(cd "$(dirname "$0")" && pwd) # the bundle
OUT=${OUT:-/tmp/gearbox-gpu-out}
R=$OUT/$STEP
mkdir -p "$R"
cd "$D" || exit 1
# A bundle too large to carry may hold its CLI gzipped.
[ -f gearbox.gz ] && gunzip -f gearbox.gz
DEVICE=${DEVICE:-cuda}
export DEVICE
# Graph lists. Real graphs named in G_UNDIRECTED are read undirected.
BENCH_GRAPHS=${BENCH_GRAPHS:-kron:18,urand:20,kron:20,datasets/wiki-Vote.txt,datasets/p2p-Gnutella31.txt,datasets/rome99.gr}
G_UNDIRECTED=${G_UNDIRECTED:-datasets/email-Enron.txt,datasets/ca-GrQc.txt,datasets/facebook_combined.txt}
G_AB=${G_AB:-kron:20 kron:22 urand:22 datasets/email-Enron.txt}

# fatbin: points the CLI and the tests at a fatbin nvcc built from the
# bundle's sources (or at the embedded kernels with EMBEDDED=1).
fatbin() {
	export GEARBOX_DATASETS=$D/datasets
	if [ -n "${EMBEDDED:-}" ]; then
		unset GEARBOX_KERNELS
		return
	fi
	[ -f "$OUT/gearbox.fatbin" ] || OUT=$OUT STAGES=build bash gpu-session.sh . >"$R/build.txt" 2>&1 ||
		{ cat "$R/build.txt"; exit 1; }
	export GEARBOX_KERNELS=$OUT/gearbox.fatbin
}
# tests: the fatbin, then every cuda-tagged test binary of the bundle.
tests() {
	OUT=$OUT STAGES="build test" bash gpu-session.sh . >"$R/tests.txt" 2>&1
	grep -E 'rc=|nvcc|FAIL|panic' "$R/tests.txt"
	cp "$OUT"/test-*.log "$R/" 2>/dev/null
	fatbin
}
# bench ARGS...: one `gearbox bench` into $R/bench, cut off after
# BENCH_LIMIT seconds (the rows of finished graphs are kept).
bench() {
	local t0=$(date +%s)
	timeout "${BENCH_LIMIT:-500}" ./gearbox --log-level warn bench --device "$DEVICE" --sources "${BENCH_SOURCES:-4}" \
		--repeats 3 --graphs "$BENCH_GRAPHS" --out-dir "$R/bench" "$@" >"$R/bench.txt" 2>&1
	echo "bench: rc=$? in $(($(date +%s) - t0)) s"
	tail -30 "$R/bench.txt"
}
# ab_loop GRAPHS: `run --sources 8` of each algorithm (AB_ALGS) on each graph,
# alternating the sides (AB_SIDES) within a round so that both see the same
# machine state, for AB_ROUNDS rounds, into $R/ab.txt. Sides: "ref" (the
# reference CLI with its own embedded kernels), "new" (this tree), "ref-thr"
# (this tree under the reference's thresholds.toml, which separates the
# code's effect from the thresholds').
ab_loop() {
	[ -f gearbox-ref.gz ] || { echo "no gearbox-ref.gz: bundle with REF=<commit>" >&2; exit 2; }
	gunzip -kf gearbox-ref.gz
	echo "reference: $(cat gearbox-ref.commit)" | tee "$R/ab.txt"
	local round g in alg side line
	for round in $(seq "${AB_ROUNDS:-3}"); do
		for g in $1; do
			in="--gen $g"
			[ -f "$g" ] && in="--graph $g"
			case ",$G_UNDIRECTED," in *",$g,"*) in="$in --undirected" ;; esac
			for alg in ${AB_ALGS:-bfs sssp}; do
				for side in ${AB_SIDES:-ref new}; do
					case $side in
					ref) line=$(env -u GEARBOX_KERNELS ./gearbox-ref --log-level warn run "$alg" $in --device "$DEVICE" --sources 8 ${AB_EXTRA:-} 2>&1) ;;
					new) line=$(./gearbox --log-level warn run "$alg" $in --device "$DEVICE" --sources 8 ${AB_EXTRA:-} 2>&1) ;;
					ref-thr) line=$(./gearbox --log-level warn run "$alg" $in --device "$DEVICE" --sources 8 --thresholds thresholds-ref.toml ${AB_EXTRA:-} 2>&1) ;;
					*) echo "gpu-plan.sh: no side $side (ref, new, ref-thr)" >&2; exit 2 ;;
					esac
					echo "round $round $side $alg $g: $(echo "$line" | grep -E '^(median|gpu medians)|rror' | tr '\n' ' ')" | tee -a "$R/ab.txt"
				done
			done
		done
	done
}

case $STEP in
tests)
	tests
	;;
overhead)
	tests
	OUT=$R STAGES=overhead bash gpu-session.sh . >"$R/overhead-stage.txt" 2>&1
	cat "$R/overhead.txt"
	;;
bench)
	fatbin
	bench "$@"
	;;
ab)
	tests
	ab_loop "$G_AB"
	;;
ab-quick)
	fatbin
	ab_loop "$G_AB"
	;;
*)
	echo "gpu-plan.sh: no step $STEP (tests, overhead, bench, ab, ab-quick)" >&2
	exit 2
	;;
esac
(cd "$OUT" && tar czf "$STEP.tgz" "$STEP")
ls -la "$OUT"
