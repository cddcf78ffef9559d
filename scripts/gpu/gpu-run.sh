#!/bin/bash
# gpu-run.sh: build gearbox.fatbin with nvcc (and a per-kernel register and
# spill report), run the cuda-tagged test binaries and the Go benchmarks on a
# GPU machine that has nvcc but no Go.
#
# Prepare DIR on the development machine with scripts/gpu/gpu-bundle.sh DIR.
# Run: bash DIR/gpu-run.sh DIR   (STAGES="build test bench" by default)
# Logs and the fatbin go to $OUT (default /tmp/gearbox-gpu-out).
set -u
DIR=${1:-.gpu}
OUT=${OUT:-/tmp/gearbox-gpu-out}
STAGES=${STAGES:-build test bench}
mkdir -p "$OUT"
cd "$DIR" || exit 1
summary() { grep -E '^(--- |ok|FAIL|PASS|panic|Benchmark|\s+[a-z_]+\.go:[0-9]+)' "$1" | grep -v -- '--- PASS: .*/' | head -${2:-60}; }

nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used,clocks.sm --format=csv,noheader
nvcc --version | tail -1

if [[ " $STAGES " == *" build "* ]]; then
	# Keep in step with kernels.NVCCFlags (a test checks this line).
	FLAGS="-fatbin -O3 -std=c++17 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=compute_80"
	t0=$(date +%s)
	if ! (cd kernels && nvcc $FLAGS -o "$OUT/gearbox.fatbin" gearbox.cu) >"$OUT/nvcc.txt" 2>&1; then
		cat "$OUT/nvcc.txt" | head -80
		echo "nvcc FAILED"
		exit 1
	fi
	echo "nvcc ok in $(($(date +%s) - t0)) s: $(stat -c %s "$OUT/gearbox.fatbin") bytes"
	(cd kernels && nvcc -cubin -O3 -std=c++17 -arch=sm_90 --resource-usage -o /tmp/gearbox_sm90.cubin gearbox.cu) >"$OUT/resource.txt" 2>&1 &
fi
export GEARBOX_KERNELS=${GEARBOX_KERNELS:-$OUT/gearbox.fatbin}
export GEARBOX_DATASETS=$PWD/datasets

if [[ " $STAGES " == *" test "* ]]; then
	for bin in ./*.test; do
		[ -x "$bin" ] || continue
		p=$(basename "$bin" .test)
		t0=$(date +%s)
		GEARBOX_CUDA_SYNC=${CUDA_SYNC:-1} timeout ${TEST_TIMEOUT:-240} "$bin" -test.run 'CUDA|Ctrl' -test.v -test.timeout 230s >"$OUT/test-$p.txt" 2>&1
		echo "== $p.test rc=$? in $(($(date +%s) - t0)) s"
		summary "$OUT/test-$p.txt" 40
	done
fi

if [[ " $STAGES " == *" bench "* ]]; then
	: >"$OUT/bench.txt"
	[ -x ./workset.test ] && timeout 60 ./workset.test -test.run '^$' -test.bench CUDAOverhead -test.benchtime ${BENCH_TIME_OVERHEAD:-0.3s} >>"$OUT/bench.txt" 2>&1
	[ -x ./bfs.test ] && timeout ${BENCH_TIMEOUT:-200} ./bfs.test -test.run '^$' -test.bench "${BENCH_BFS:-CUDABFS}" -test.benchtime ${BENCH_N:-10}x >>"$OUT/bench.txt" 2>&1
	[ -x ./sssp.test ] && timeout ${BENCH_TIMEOUT:-200} ./sssp.test -test.run '^$' -test.bench "${BENCH_SSSP:-CUDASSSP}" -test.benchtime ${BENCH_N_SSSP:-5}x >>"$OUT/bench.txt" 2>&1
	[ -x ./apsp.test ] && timeout ${BENCH_TIMEOUT:-200} ./apsp.test -test.run '^$' -test.bench "${BENCH_APSP:-CUDAAPSP}" -test.benchtime ${BENCH_N_APSP:-5}x -test.v >>"$OUT/bench.txt" 2>&1
	grep -E '^Benchmark|FAIL|panic' "$OUT/bench.txt"
fi
wait
grep -E 'registers|spill|stack' "$OUT/resource.txt" 2>/dev/null | grep -E 'spill stores|bytes stack' | grep -v ' 0 bytes spill stores, 0 bytes spill loads' | head -10
true
