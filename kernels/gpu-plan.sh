#!/bin/bash
# gpu-plan.sh: the H100 measurement plan of issue #5 in three device calls,
# each under the device tool's 10-minute limit. Run from the repository root
# on the GPU machine after `bash kernels/gpu-bundle.sh` here and a `run` with
# carry [".gpu"]:
#
#   bash .gpu/kernels/gpu-plan.sh 1   # fatbin, every GPU test, overhead, bench over the small and directed graphs
#   bash .gpu/kernels/gpu-plan.sh 2   # bench over the undirected real graphs and the scale-22 graphs (BFS, CC)
#   bash .gpu/kernels/gpu-plan.sh 3   # SSSP at scale 22, and the H100 A/B of delta_factor and jump_factor
#   bash .gpu/kernels/gpu-plan.sh sssp22  # SSSP at scale 22 only
#   ALGS=sssp bash .gpu/kernels/gpu-plan.sh algs  # the benches of calls 1-3 for ALGS only (statics at DELTAS;
#                                                 # the grid apart; SSSP ~8 minutes with confirmation rounds)
#   bash .gpu/kernels/gpu-plan.sh tune-bfs  # fatbin, GPU tests, overhead, BFS's own section by tune --section bfs
#   bash .gpu/kernels/gpu-plan.sh tune-bfs-floors  # BFS's pull and bitmap floors by tune, then the BFS bench under them
#   bash .gpu/kernels/gpu-plan.sh tune-bfs-device  # GPU tests, overhead, BFS's section by tune --score device
#   THRESHOLDS=f.toml bash .gpu/kernels/gpu-plan.sh bench-bfs  # the BFS bench over the 12 graphs under f.toml
#   bash .gpu/kernels/gpu-plan.sh bucket3 # SSSP tests, scale-22 SSSP bench, kron:22 with and without buckets
#   bash .gpu/kernels/gpu-plan.sh bucket2 # scale 22: bucket_edges x delta by tune, statics, traces
#   bash .gpu/kernels/gpu-plan.sh bucket  # GPU tests, then SSSP's work-targeted buckets: benches of every
#                                         # static delta against them, and a tune of delta and bucket_edges
#   bash .gpu/kernels/gpu-plan.sh fuse  # fatbin, GPU tests, A/B against REF on the small graphs, grid, kron:20;
#                                       # the bench over the small real graphs
#   bash .gpu/kernels/gpu-plan.sh limit  # bfs, sssp GPU tests; the persistent frontier limit swept
#   bash .gpu/kernels/gpu-plan.sh tune-sssp  # GPU tests, SSSP's T3/T2/T1/threads per block by tune, directed SSSP bench
#                                            # (T3S, T2S, T1S, TPBS, FACTORS: the ranges; empty = not swept)
#   THRESHOLDS=f.toml SKIP_DIRECTED=1 ALGS=sssp DELTAS=32,256,4096 bash .gpu/kernels/gpu-plan.sh algs
#                                            # the undirected and scale-22 SSSP benches under f.toml
#   bash .gpu/kernels/gpu-plan.sh pull  # GPU tests, then BFS (adaptive, static pull) against the reference CLI
#   bash .gpu/kernels/gpu-plan.sh pull-tune  # GPU tests, then BFS's pull knobs by tune --score device
#   bash .gpu/kernels/gpu-plan.sh levels  # GPU tests, then per-level latency: this tree against REF on paths, grids,
#                                         # road and small real graphs, and the scale-free graphs
#   bash .gpu/kernels/gpu-plan.sh variants  # kernel variants (kalt/NAME: edited copies of the sources) side by side
#   bash .gpu/kernels/gpu-plan.sh final1  # issue #5's closing benches over every real traversal graph, part 1:
#                                         # fatbin, GPU tests, overhead, the BFS bench over the real graphs and
#                                         # the scale-18/20 ones (final2: BFS on the grid and scale 22, SSSP on
#                                         # the real and scale-18/20 graphs; final3: SSSP on the grid and scale 22;
#                                         # EMBEDDED=1: the CLI's embedded kernels, no nvcc)
#   bash .gpu/kernels/gpu-plan.sh ab-quick  # the A/B of `ab` alone (a fatbin copied into $OUT skips nvcc)
#   bash .gpu/kernels/gpu-plan.sh ab  # fatbin, GPU tests, overhead, then this tree against the
#                                     # bundled reference CLI (REF=<commit> bash kernels/gpu-bundle.sh):
#                                     # `run --sources 8` alternated, AB_ROUNDS rounds, per graph and algorithm
#
# Each call leaves $OUT/r<N>.tgz (logs, CSVs, reports; call 1 also the
# fatbin). Calls 2 and 3 rebuild the fatbin when the machine is fresh.
set -u
CALL=${1:?usage: gpu-plan.sh 1|2|3}
D=$(cd "$(dirname "$0")/.." && pwd) # the bundle (.gpu)
OUT=${OUT:-/tmp/gearbox-gpu-out}
R=$OUT/r$CALL
mkdir -p "$R"
cd "$D" || exit 1
# A bundle over the 64 MiB carry limit travels with its CLI gzipped.
[ -f gearbox.gz ] && gunzip -f gearbox.gz
DEVICE=${DEVICE:-cuda}
export DEVICE
# bench NAME SECONDS ARGS...: one bench, cut off (rows of finished graphs
# kept) before the call's limit.
bench() {
	local name=$1 limit=$2
	shift 2
	local t0=$(date +%s)
	timeout "$limit" ./gearbox --log-level warn bench --device "$DEVICE" --sources 4 --repeats 3 --compare-defaults \
		--out-dir "$R/$name" "$@" >"$R/$name.txt" 2>&1
	echo "$name: rc=$? in $(($(date +%s) - t0)) s"
}
fatbin() {
	if [ -n "${EMBEDDED:-}" ]; then # the CLI's own kernels (a call that checked them against nvcc's already ran)
		unset GEARBOX_KERNELS
		export GEARBOX_DATASETS=$D/datasets
		return
	fi
	if [ -f "$OUT/gearbox.fatbin" ]; then
		export GEARBOX_KERNELS=$OUT/gearbox.fatbin GEARBOX_DATASETS=$D/datasets
		return
	fi
	OUT=$OUT STAGES=build bash gpu-session.sh . >"$R/build.txt" 2>&1
	export GEARBOX_KERNELS=$OUT/gearbox.fatbin GEARBOX_DATASETS=$D/datasets
}
# tests: builds the fatbin and runs every GPU test (logs and the fatbin
# kept under $R), then points the CLI at the fatbin.
tests() {
	OUT=$OUT STAGES="build test" bash gpu-session.sh . >"$R/tests.txt" 2>&1
	grep -E 'rc=|nvcc|FAIL|panic' "$R/tests.txt"
	cp "$OUT"/test-*.log "$OUT/gearbox.fatbin" "$R/" 2>/dev/null
	fatbin
}
# tests_and_overhead: tests, then the overhead stage (calls 1 and ab).
tests_and_overhead() {
	tests
	OUT=$R STAGES=overhead OVERHEAD_SOURCES=8 bash gpu-session.sh . >"$R/overhead-stage.txt" 2>&1
	cat "$R/overhead.txt"
}
U="--undirected"
# bench_bfs FILE: the BFS bench over the twelve graphs under thresholds FILE.
bench_bfs() {
	bench directed 150 --graphs "$G_DIRECTED,$G_GRID" --algorithms bfs --thresholds "$1"
	bench undirected 60 $U --graphs "$G_UNDIRECTED" --algorithms bfs --thresholds "$1"
	bench scale22 150 --graphs "$G_22" --algorithms bfs --thresholds "$1" --verify=false
}
# thr FILE DELTA EDGES [LINES]: the shipped thresholds plus an H100 SSSP
# section with that fixed delta and bucket_edges (and any further LINES).
thr() {
	cp thresholds.toml "$1"
	printf '\n[gpu."NVIDIA H100 80GB HBM3".sssp]\ndelta = %s\ndelta_factor = 0.0\nbucket_edges = %s\n%s' "$2" "$3" "${4:-}" >>"$1"
}
# Graph lists (overridable, e.g. with tiny graphs to try the script on a CPU).
# The grid is a bench of its own in `algs`: with the confirmation round, the SSSP bench of the
# directed graphs and the grid together ran past 330 s (session 11).
G_DIRECTED=${G_DIRECTED:-kron:18,urand:20,kron:20,datasets/wiki-Vote.txt,datasets/p2p-Gnutella31.txt,datasets/rome99.gr}
G_GRID=${G_GRID:-grid:2048:2048}
G_UNDIRECTED=${G_UNDIRECTED:-datasets/email-Enron.txt,datasets/ca-GrQc.txt,datasets/facebook_combined.txt}
G_22=${G_22:-kron:22,urand:22}
G_TUNE=${G_TUNE:-kron:20,urand:20,grid:1024:1024,datasets/email-Enron.txt}
G_SMALL=${G_SMALL:-datasets/wiki-Vote.txt datasets/p2p-Gnutella31.txt datasets/rome99.gr}
# ab_loop GRAPHS: this tree ("new") against the bundled reference CLI
# ("ref", its own embedded kernels; "ref-thr": this tree under the
# reference's thresholds.toml, which separates the code's effect from the
# thresholds'; "limit=N": this tree with GEARBOX_FUSED_LEVELS=N; "le=N":
# with GEARBOX_LOCAL_EDGES=N; "k:NAME": with the fatbin that `variants`
# built from kalt/NAME), `run
# --sources 8` alternated for AB_ROUNDS rounds (sides AB_SIDES), into
# $R/ab.txt. Real graphs listed in G_UNDIRECTED are read undirected.
ab_loop() {
	if [ -f gearbox-ref.gz ]; then
		gunzip -kf gearbox-ref.gz
		echo "reference: $(cat gearbox-ref.commit)" | tee "$R/ab.txt"
	fi
	for round in $(seq "${AB_ROUNDS:-3}"); do
		for g in $1; do
			in="--gen $g"; [ -f "$g" ] && in="--graph $g"
			case ",$G_UNDIRECTED," in *",$g,"*) in="$in $U" ;; esac
			for alg in ${AB_ALGS:-bfs sssp}; do
				for side in ${AB_SIDES:-ref new ref-thr}; do
					case $side in
					ref) line=$(env -u GEARBOX_KERNELS ./gearbox-ref --log-level warn run "$alg" $in --device "$DEVICE" --sources 8 ${AB_EXTRA:-} 2>&1) ;;
					new) line=$(./gearbox --log-level warn run "$alg" $in --device "$DEVICE" --sources 8 ${AB_EXTRA:-} 2>&1) ;;
					ref-thr) line=$(./gearbox --log-level warn run "$alg" $in --device "$DEVICE" --sources 8 --thresholds thresholds-ref.toml 2>&1) ;;
					limit=*) line=$(GEARBOX_FUSED_LEVELS=${side#limit=} ./gearbox --log-level warn run "$alg" $in --device "$DEVICE" --sources 8 2>&1) ;;
					k:*) line=$(GEARBOX_KERNELS=$R/k-${side#k:}.fatbin ./gearbox --log-level warn run "$alg" $in --device "$DEVICE" --sources 8 ${AB_EXTRA:-} 2>&1) ;;
					le=*) line=$(GEARBOX_LOCAL_EDGES=${side#le=} ./gearbox --log-level warn run "$alg" $in --device "$DEVICE" --sources 8 ${AB_EXTRA:-} 2>&1) ;;
					esac
					echo "round $round $side $alg $g: $(echo "$line" | grep -E '^(median|gpu medians)|rror' | tr '\n' ' ')" | tee -a "$R/ab.txt"
				done
			done
		done
	done
}
# The closing benches' graphs: every real graph of the datasets that is a
# traversal input (the max-flow instances aside; gstest's p2p-31 is
# p2p-Gnutella31 again), with email-Eu-core and PGPgiantcompo also in the
# tune lists, and cal.cedge's lengths scaled to integers of 1..300 so that
# the static deltas mean what they do on the other graphs.
G_DIRECTED_ALL=${G_DIRECTED_ALL:-$G_DIRECTED,datasets/email-Eu-core.txt}
G_UNDIRECTED_ALL=${G_UNDIRECTED_ALL:-$G_UNDIRECTED,datasets/power.graph,datasets/PGPgiantcompo.graph,datasets/polbooks.mtx}
G_ROAD=${G_ROAD:-datasets/cal.cedge}
ROAD_SCALE=${ROAD_SCALE:-1000}
G_TUNE_BFS=${G_TUNE_BFS:-kron:19,urand:20,grid:1024:1024,datasets/email-Enron.txt,datasets/PGPgiantcompo.graph,datasets/email-Eu-core.txt}
case $CALL in
1)
	tests_and_overhead
	bench directed 330 --graphs "$G_DIRECTED,$G_GRID" --algorithms bfs,sssp,cc --delta 32,64,256
	;;
2)
	fatbin
	bench undirected 200 $U --graphs "$G_UNDIRECTED" --algorithms bfs,sssp,cc --delta 32,64,256
	bench scale22 360 --graphs "$G_22" --algorithms bfs,cc
	;;
3)
	fatbin
	bench scale22-sssp 300 --graphs "$G_22" --algorithms sssp --delta 64,256 --verify=false
	t0=$(date +%s)
	timeout 250 ./gearbox --log-level warn tune --device "$DEVICE" --graphs "$G_TUNE" --algorithms bfs,sssp --sources 3 --repeats 3 \
		--t3 "" --sample-every "" --t2 "" --t1 "" --alpha "" --beta "" --delta "" --threads-per-block "" \
		--delta-factor 0,2,4,8,16 --jump-factor 0,16 --out-dir "$R/tune-factors" >"$R/tune-factors.txt" 2>&1
	echo "tune-factors: rc=$? in $(($(date +%s) - t0)) s"
	;;
tune-bfs)
	# BFS's own H100 section (tune --section bfs) on graphs outside the
	# bench's list, written into a copy of the shipped thresholds.toml.
	tests_and_overhead
	cp thresholds.toml "$R/thresholds-tuned.toml"
	t0=$(date +%s)
	timeout 400 ./gearbox --log-level warn tune --device "$DEVICE" --graphs "$G_TUNE_BFS" --algorithms bfs --section bfs \
		--sources 4 --repeats 3 --passes "${PASSES:-2}" --t2 256:65536:x4 --t1 8,16,32,64 --threads-per-block 64,128,256,512 \
		--out-dir "$R/tune-bfs" --thresholds-out "$R/thresholds-tuned.toml" >"$R/tune-bfs.txt" 2>&1
	echo "tune-bfs: rc=$? in $(($(date +%s) - t0)) s"
	tail -25 "$R/tune-bfs.txt"
	;;
tune-bfs-device)
	# BFS's own section scored by device time (tune --score device) on larger
	# graphs outside the bench's list, where a pull pays; GPU tests first.
	tests_and_overhead
	cp thresholds.toml "$R/thresholds-tuned.toml"
	t0=$(date +%s)
	timeout "${TUNE_LIMIT:-330}" ./gearbox --log-level warn tune --device "$DEVICE" --graphs "${G_TUNE_BFS_DEV:-kron:21,urand:21,grid:1024:1024,datasets/email-Enron.txt}" \
		--algorithms bfs --section bfs --score device --sources 3 --repeats 3 --passes 1 --t2 256:65536:x4 --t1 8,16,32,64 \
		--threads-per-block 64,128,256,512 --out-dir "$R/tune-bfs-device" --thresholds-out "$R/thresholds-tuned.toml" >"$R/tune-bfs-device.txt" 2>&1
	echo "tune-bfs-device: rc=$? in $(($(date +%s) - t0)) s"
	tail -25 "$R/tune-bfs-device.txt"
	;;
bench-bfs)
	# The BFS bench over the twelve graphs under THRESHOLDS (default: the
	# shipped file), against the device-derived defaults.
	fatbin
	bench_bfs "${THRESHOLDS:-thresholds.toml}"
	;;
tune-bfs-floors)
	# The BFS floors (pull_min_edges, bitmap_min_vertices) that the default
	# sweep leaves out, from BFS's shipped section, then the BFS bench under
	# the result against the device-derived defaults.
	fatbin
	cp thresholds.toml "$R/thresholds-tuned.toml"
	t0=$(date +%s)
	timeout 300 ./gearbox --log-level warn tune --device "$DEVICE" --graphs "$G_TUNE_BFS" --algorithms bfs --section bfs \
		--sources 4 --repeats 3 --passes 1 --t3 "" --sample-every "" --t2 "" --t1 "" --alpha "" --beta "" --threads-per-block "" \
		--pull-min-edges 65536:4194304:x4 --bitmap-min-vertices 16384:1048576:x4 \
		--out-dir "$R/tune-floors" --thresholds-out "$R/thresholds-tuned.toml" >"$R/tune-floors.txt" 2>&1
	echo "tune-floors: rc=$? in $(($(date +%s) - t0)) s"
	tail -22 "$R/tune-floors.txt"
	bench_bfs "$R/thresholds-tuned.toml"
	;;
bucket)
	# SSSP's work-targeted buckets (bucket_edges) against fixed deltas: the
	# shipped file plus an SSSP section with buckets of 2^20 out-edges over
	# width-2 bins, ordered on every graph of 8+ arcs per vertex.
	tests
	thr "$R/thr-bucket.toml" "${B_DELTA:-2}" "${B_EDGES:-1048576}" $'ordered_min_vertices = 0\n'
	bench bucket22 150 --graphs "$G_22" --algorithms sssp --delta 1,2,4,8,16,32,64,256 --thresholds "$R/thr-bucket.toml" --verify=false
	bench bucket20 100 --graphs kron:20,kron:18,urand:20 --algorithms sssp --delta 1,2,4,8,16,32,64,256 --thresholds "$R/thr-bucket.toml"
	bench bucket-small 50 --graphs datasets/wiki-Vote.txt,datasets/p2p-Gnutella31.txt --algorithms sssp --delta 1,4,16,64,256 --thresholds "$R/thr-bucket.toml"
	t0=$(date +%s)
	cp "$R/thr-bucket.toml" "$R/thr-tuned.toml"
	timeout "${TUNE_LIMIT:-110}" ./gearbox --log-level warn tune --device "$DEVICE" --graphs "${G_TUNE_B:-kron:21,urand:21,kron:19}" \
		--algorithms sssp --section sssp --score device --sources 3 --repeats 3 --passes 2 --thresholds "$R/thr-bucket.toml" \
		--t3 "" --sample-every "" --t2 "" --t1 "" --alpha "" --beta "" --delta-factor "" --threads-per-block "" \
		--delta 1,2,4,8,16 --bucket-edges 0,131072,262144,524288,1048576,2097152,4194304 \
		--out-dir "$R/tune-bucket" --thresholds-out "$R/thr-tuned.toml" >"$R/tune-bucket.txt" 2>&1
	echo "tune-bucket: rc=$? in $(($(date +%s) - t0)) s"
	tail -20 "$R/tune-bucket.txt"
	;;
bucket2)
	# The embedded fatbin; the bucket target and delta swept at scale 22
	# with the statics beside them, and per-iteration traces.
	export GEARBOX_DATASETS=$D/datasets
	thr "$R/thr-32-4M.toml" 32 4194304
	thr "$R/thr-16-4M.toml" 16 4194304
	bench static22 150 --graphs "$G_22" --algorithms sssp --delta 16,32,64 --thresholds "$R/thr-32-4M.toml" --verify=false
	t0=$(date +%s)
	cp "$R/thr-16-4M.toml" "$R/thr-tuned.toml"
	timeout "${TUNE_LIMIT:-150}" ./gearbox --log-level warn tune --device "$DEVICE" --graphs "$G_22" \
		--algorithms sssp --section sssp --score device --sources 3 --repeats 3 --passes 1 --thresholds "$R/thr-16-4M.toml" \
		--t3 "" --sample-every "" --t2 "" --t1 "" --alpha "" --beta "" --delta-factor "" --threads-per-block "" \
		--delta 8,16,32,64 --bucket-edges 0,1048576,4194304,16777216,67108864 \
		--out-dir "$R/tune-bucket" --thresholds-out "$R/thr-tuned.toml" >"$R/tune-bucket.txt" 2>&1
	echo "tune-bucket: rc=$? in $(($(date +%s) - t0)) s"
	tail -12 "$R/tune-bucket.txt"
	for t in thr-16-4M thr-32-4M; do
		./gearbox --log-level warn run sssp --gen kron:22 --device "$DEVICE" --thresholds "$R/$t.toml" --trace "$R/trace-$t.json" >"$R/trace-$t.txt" 2>&1
	done
	./gearbox --log-level warn run sssp --gen kron:22 --device "$DEVICE" --variant O_B_QU --delta 32 --trace "$R/trace-O_B_QU-32.json" >"$R/trace-O_B_QU-32.txt" 2>&1
	;;
bucket3)
	# The shipped thresholds (bucket_edges 2^22 from skew 64): SSSP tests,
	# the scale-22 SSSP bench, and kron:22 alternated against the same file
	# with fixed buckets.
	export GEARBOX_DATASETS=$D/datasets
	./sssp.test -test.v >"$R/test-sssp.log" 2>&1
	echo "sssp tests: rc=$? $(grep -c '^--- PASS' "$R/test-sssp.log") passed"
	sed 's/^bucket_edges = 4194304/bucket_edges = 0/' thresholds.toml >"$R/thr-fixed.toml"
	bench bucket22 150 --graphs "$G_22" --algorithms sssp --delta 16,32,64 --verify=false
	for round in 1 2 3; do
		for side in bucket fixed; do
			t=thresholds.toml; [ $side = fixed ] && t=$R/thr-fixed.toml
			echo "round $round $side: $(./gearbox --log-level warn run sssp --gen kron:22 --device "$DEVICE" --sources 8 --thresholds "$t" 2>&1 | grep median)" | tee -a "$R/ab.txt"
		done
	done
	;;
sssp22)
	fatbin
	bench scale22-sssp 300 --graphs "$G_22" --algorithms sssp --delta 64,256 --verify=false
	;;
algs)
	fatbin
	DELTAS=${DELTAS:-32,64,256}
	TH=()
	[ -n "${THRESHOLDS:-}" ] && TH=(--thresholds "$THRESHOLDS")
	[ -z "${SKIP_DIRECTED:-}" ] && bench directed "${T_DIRECTED:-150}" --graphs "$G_DIRECTED" --algorithms "${ALGS:?}" --delta "$DELTAS" "${TH[@]}"
	[ -z "${SKIP_DIRECTED:-}" ] && bench grid "${T_GRID:-250}" --graphs "$G_GRID" --algorithms "$ALGS" --delta "$DELTAS" "${TH[@]}"
	bench undirected "${T_UNDIRECTED:-100}" $U --graphs "$G_UNDIRECTED" --algorithms "$ALGS" --delta "$DELTAS" "${TH[@]}"
	bench scale22 "${T_22:-200}" --graphs "$G_22" --algorithms "$ALGS" --delta "$DELTAS" --verify=false "${TH[@]}"
	;;
tune-sssp)
	# SSSP's own section by tune --score device over graphs outside the
	# bench's list, from the shipped section, after the GPU tests: the
	# structure knobs (T3, T2, T1, threads per block) by default; T3S, T2S,
	# T1S, TPBS and FACTORS (delta_factor) set the ranges, empty for none
	# (session 10 swept delta_factor with T3S= T2S= T1S= TPBS=
	# FACTORS=8,16,32,64,128). Then the directed SSSP bench under the result
	# (the rest: THRESHOLDS=... SKIP_DIRECTED=1 ALGS=sssp gpu-plan.sh algs).
	tests
	TH=$R/thresholds-tuned.toml
	cp thresholds.toml "$TH"
	t0=$(date +%s)
	timeout "${TUNE_LIMIT:-240}" ./gearbox --log-level warn tune --device "$DEVICE" \
		--graphs "${G_TUNE_SSSP:-kron:19,grid:1536:1536,urand:21,kron:21,datasets/PGPgiantcompo.graph,datasets/email-Eu-core.txt}" \
		--algorithms sssp --section sssp --score device --sources 4 --repeats 3 --passes 1 \
		--t3 "${T3S-0.005,0.02,0.05,0.11}" --t2 "${T2S-1024,8192,33792}" --t1 "${T1S-8,32}" --threads-per-block "${TPBS-64,256}" \
		--delta-factor "${FACTORS-}" --sample-every '' --alpha '' --beta '' --delta '' \
		--out-dir "$R/tune-sssp" --thresholds "$TH" --thresholds-out "$TH" >"$R/tune-sssp.txt" 2>&1
	echo "tune-sssp: rc=$? in $(($(date +%s) - t0)) s"
	grep -A12 '^pass' "$R/tune-sssp.txt"
	bench directed "${T_DIRECTED:-260}" --graphs "$G_DIRECTED,$G_GRID" --algorithms sssp --delta "${DELTAS:-32,256,4096}" --thresholds "$TH"
	;;
limit)
	# The persistent launches' frontier limit (GEARBOX_FUSED_LEVELS) swept
	# on graphs that run unordered, after the bfs and sssp GPU tests with
	# the embedded fatbin.
	export GEARBOX_DATASETS=$D/datasets
	for p in bfs sssp; do
		./$p.test -test.run CUDA -test.v -test.timeout 300s >"$R/test-$p.log" 2>&1
		echo "$p tests: rc=$? passed $(grep -c '^--- PASS' "$R/test-$p.log") failed $(grep -c '^--- FAIL' "$R/test-$p.log")"
	done
	sides=""
	for lim in ${LIMITS:-32768 131072 524288}; do sides="$sides limit=$lim"; done
	AB_ROUNDS=${AB_ROUNDS:-2} AB_ALGS=${AB_ALGS:-sssp bfs} AB_SIDES=$sides \
		ab_loop "${G_LIMIT:-grid:2048:2048 kron:20 datasets/email-Enron.txt datasets/p2p-Gnutella31.txt}"
	;;
ab)
	tests_and_overhead
	ab_loop "${G_AB:-kron:20 kron:22 urand:22}"
	;;
pull)
	# BFS's pull levels inside a launch: GPU tests, then this tree against
	# the reference CLI on the graphs where the adaptive policy pulls, and
	# the static pull variant (AB_EXTRA) on three of them.
	tests
	AB_ALGS=bfs AB_SIDES="ref new" ab_loop "${G_AB:-kron:18 kron:20 urand:20 kron:22 urand:22 ${G_UNDIRECTED//,/ }}"
	mv "$R/ab.txt" "$R/ab-auto.txt"
	AB_ALGS=bfs AB_SIDES="ref new" AB_ROUNDS=1 AB_EXTRA="--variant pull" ab_loop "kron:18 urand:20 datasets/email-Enron.txt"
	mv "$R/ab.txt" "$R/ab-pull.txt"
	;;
pull-tune)
	# GPU tests, then BFS's pull knobs (pull_min_edges, alpha, beta) by
	# tune --score device from BFS's shipped section, after pulls moved
	# into launches (bfs_pull_persist).
	tests
	cp thresholds.toml "$R/thresholds-tuned.toml"
	t0=$(date +%s)
	timeout "${TUNE_LIMIT:-330}" ./gearbox --log-level warn tune --device "$DEVICE" --graphs "$G_TUNE_BFS" --algorithms bfs --section bfs \
		--score device --sources 4 --repeats 3 --passes 1 --t3 "" --sample-every "" --t2 "" --t1 "" --threads-per-block "" \
		--pull-min-edges 32768:2097152:x4 --alpha 5,10,20 --beta 6,18,48 \
		--out-dir "$R/tune-pull" --thresholds-out "$R/thresholds-tuned.toml" >"$R/tune-pull.txt" 2>&1
	echo "tune-pull: rc=$? in $(($(date +%s) - t0)) s"
	tail -22 "$R/tune-pull.txt"
	;;
levels)
	# Per-level latency (kernels/NOTES.md v10): GPU tests, then this tree
	# against the reference CLI on paths, grids and road-like graphs, where
	# a persistent launch runs thousands of small levels, and on the
	# scale-free graphs, where it runs few.
	tests
	AB_SIDES=${AB_SIDES:-ref new} ab_loop "${G_AB:-grid:2049:1 grid:256:256 grid:2048:2048 datasets/rome99.gr datasets/p2p-Gnutella31.txt datasets/email-Enron.txt kron:20 kron:22 urand:22}"
	;;
variants)
	# Kernel variants side by side: each folder kalt/NAME of the bundle
	# (a copy of kernels/*.cu and *.cuh, edited, put there by hand after
	# gpu-bundle.sh; the kernels' names and arguments as this tree's CLI
	# launches them) built by nvcc for sm_90 only, then `run` with each
	# fatbin in turn (sides k:NAME).
	sides=""
	for k in kalt/*/; do
		n=$(basename "$k")
		(cd "$k" && nvcc -fatbin -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -o "$R/k-$n.fatbin" gearbox.cu) >"$R/nvcc-$n.txt" 2>&1 ||
			{ echo "nvcc $n FAILED"; head -20 "$R/nvcc-$n.txt"; }
		sides="$sides k:$n"
	done
	export GEARBOX_DATASETS=$D/datasets
	AB_SIDES=${AB_SIDES:-$sides} ab_loop "${G_AB:-grid:2049:1 grid:256:256 grid:2048:2048 datasets/rome99.gr datasets/p2p-Gnutella31.txt datasets/email-Enron.txt kron:20}"
	rm -f "$R"/k-*.fatbin
	;;
final1)
	tests_and_overhead
	bench bfs-directed "${T_DIRECTED:-150}" --graphs "$G_DIRECTED_ALL" --algorithms bfs
	bench bfs-undirected "${T_UNDIRECTED:-90}" $U --graphs "$G_UNDIRECTED_ALL" --algorithms bfs
	bench bfs-road "${T_ROAD:-60}" --graphs "$G_ROAD" --algorithms bfs
	;;
final2)
	fatbin
	bench bfs-grid "${T_GRID:-90}" --graphs "$G_GRID" --algorithms bfs
	bench bfs-scale22 "${T_22:-120}" --graphs "$G_22" --algorithms bfs --verify=false
	bench sssp-directed "${T_DIRECTED_S:-180}" --graphs "$G_DIRECTED_ALL" --algorithms sssp --delta 32,64,256
	bench sssp-undirected "${T_UNDIRECTED_S:-90}" $U --graphs "$G_UNDIRECTED_ALL" --algorithms sssp --delta 32,64,256
	bench sssp-road "${T_ROAD_S:-60}" --graphs "$G_ROAD" --weight-scale "$ROAD_SCALE" --algorithms sssp --delta 32,64,256
	;;
final3)
	fatbin
	bench sssp-scale22 "${T_22_S:-240}" --graphs "$G_22" --algorithms sssp --delta 32,64,256 --verify=false
	bench sssp-grid "${T_GRID_S:-250}" --graphs "$G_GRID" --algorithms sssp --delta "${GRID_DELTAS:-32,256,4096}"
	;;
ab-quick)
	# The A/B alone, with the fatbin in $OUT when one was put there.
	fatbin
	ab_loop "${G_AB:-kron:20 kron:22 urand:22}"
	;;
fuse)
	# Persistent launches from the first level, hubs expanded by their
	# blocks inside them: GPU tests, this tree against the
	# reference CLI (REF=<commit> bash kernels/gpu-bundle.sh) on the small
	# real graphs, the grid and kron:20, then the BFS and SSSP bench over
	# the small real graphs.
	tests
	AB_SIDES=${AB_SIDES:-ref new} ab_loop "${G_AB:-$G_SMALL ${G_UNDIRECTED//,/ } grid:2048:2048 kron:20}"
	[ -n "${NO_SMALL_BENCH:-}" ] || bench small 120 --graphs "${G_SMALL// /,}" --algorithms bfs,sssp
	[ -n "${NO_SMALL_BENCH:-}" ] || bench small-undirected 90 $U --graphs "$G_UNDIRECTED" --algorithms bfs,sssp
	[ -z "${BENCH_BFS_GRAPHS:-}" ] || bench bfs 150 --graphs "$BENCH_BFS_GRAPHS" --algorithms bfs --verify=false
	;;
*)
	echo "gpu-plan.sh: no call $CALL (1, 2, 3, sssp22, algs, ab, ab-quick, fuse, limit, tune-bfs or tune-bfs-floors)" >&2
	exit 2
	;;
esac
(cd "$OUT" && tar czf "r$CALL.tgz" "r$CALL")
ls -la "$OUT"
