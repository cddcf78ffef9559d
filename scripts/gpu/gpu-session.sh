#!/bin/bash
# gpu-session.sh: one batch on a GPU machine that has nvcc and the driver but
# no Go. Builds gearbox.fatbin from the sources, runs the cuda-tagged GPU
# tests, then the commands given in STAGES. Logs and results go to $OUT.
#
# Prepare DIR on a development machine with scripts/gpu/gpu-bundle.sh:
#   DIR/kernels/   the .cu/.cuh sources
#   DIR/*.test     the cuda-tagged test binaries (go test -tags cuda -c)
#   DIR/gearbox    go build -tags cuda ./cmd/gearbox
#   DIR/datasets/  the real graphs the tests read (GEARBOX_DATASETS)
# Run: STAGES="build test bench" bash DIR/gpu-session.sh DIR
# Stages: build (nvcc), test (cuda-tagged tests), run, overhead (inspection
# and conversion shares, exact timing), bench, tune.
set -u
DIR=$(cd "${1:-.gpu}" && pwd)
OUT=${OUT:-/tmp/gearbox-gpu-out}
STAGES=${STAGES:-build test}
mkdir -p "$OUT"
cd "$DIR" || exit 1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv,noheader | tee "$OUT/device.txt"
nvcc --version | tail -1 | tee -a "$OUT/device.txt"

if [[ " $STAGES " == *" build "* ]]; then
	# Keep in step with kernels.NVCCFlags.
	FLAGS="-fatbin -O3 -std=c++17 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=compute_80"
	(cd kernels && nvcc $FLAGS -o "$OUT/gearbox.fatbin" gearbox.cu) >"$OUT/nvcc.txt" 2>&1 || { cat "$OUT/nvcc.txt"; echo "nvcc FAILED"; exit 1; }
	echo "nvcc ok: $(stat -c %s "$OUT/gearbox.fatbin") bytes"
fi
export GEARBOX_KERNELS=$OUT/gearbox.fatbin GEARBOX_DATASETS=$DIR/datasets

if [[ " $STAGES " == *" test "* ]]; then
	for bin in ./*.test; do
		[ -x "$bin" ] || continue
		p=$(basename "$bin" .test)
		t0=$(date +%s)
		"$bin" -test.run 'CUDA|Ctrl' -test.v -test.timeout 300s >"$OUT/test-$p.log" 2>&1
		rc=$?
		echo "$p: rc=$rc in $(($(date +%s) - t0)) s; top-level tests passed $(grep -c '^--- PASS' "$OUT/test-$p.log"), failed $(grep -c '^--- FAIL' "$OUT/test-$p.log"), skipped $(grep -c '^--- SKIP' "$OUT/test-$p.log"); subtests passed $(grep -c '^    --- PASS' "$OUT/test-$p.log")"
		grep -E '^(--- FAIL|panic)|^\s+--- FAIL' "$OUT/test-$p.log" | head -20
	done
fi

if [[ " $STAGES " == *" run "* ]]; then
	for gr in ${RUN_GRAPHS:-kron:20 kron:22 urand:22 grid:2048:2048 datasets/email-Enron.txt}; do
		in="--gen $gr"; [ -f "$gr" ] && in="--graph $gr --undirected"
		for alg in bfs sssp cc; do
			echo "== $alg $gr"
			./gearbox --log-level warn run $alg $in --device cuda $( [ $alg != cc ] && echo --sources 8 ) --verify 2>&1 | grep -vE '^source ' | tee -a "$OUT/run.txt" | tail -4
		done
	done
fi

if [[ " $STAGES " == *" overhead "* ]]; then
	# Inspection and conversion as a share of each run, timed exactly
	# (--trace turns on exact timing: conversions wait for their kernels).
	for gr in ${OVERHEAD_GRAPHS:-kron:22 urand:22 kron:20 grid:2048:2048 datasets/email-Enron.txt datasets/p2p-Gnutella31.txt}; do
		in="--gen $gr"; [ -f "$gr" ] && in="--graph $gr"
		for alg in bfs sssp; do
			printf '%s %s: ' "$alg" "$gr" | tee -a "$OUT/overhead.txt"
			./gearbox --log-level warn run $alg $in --device "${DEVICE:-cuda}" --sources "${OVERHEAD_SOURCES:-8}" --trace "$OUT/trace-$alg-${gr//[:\/]/_}.json" 2>&1 |
				grep -E '^(median|overhead)' | tr '\n' ' ' | tee -a "$OUT/overhead.txt"
			echo | tee -a "$OUT/overhead.txt"
		done
	done
fi

if [[ " $STAGES " == *" bench "* ]]; then
	./gearbox --log-level warn bench --device cuda --graphs "${BENCH_GRAPHS:-kron:20,datasets/email-Enron.txt}" \
		--sources "${BENCH_SOURCES:-4}" --delta "${BENCH_DELTA:-32,256}" --out-dir "$OUT/${BENCH_NAME:-bench}" 2>&1 | tail -30
fi

if [[ " $STAGES " == *" tune "* ]]; then
	./gearbox --log-level warn tune --device cuda --graphs "${TUNE_GRAPHS:-kron:20,urand:20,grid:1024:1024}" \
		--sources "${TUNE_SOURCES:-3}" ${TUNE_FLAGS:-} --out-dir "$OUT/tune" --thresholds-out "$OUT/tune/thresholds.toml" 2>&1 | tail -30
fi
ls -la "$OUT"
