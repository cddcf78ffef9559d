#!/bin/bash
# gpu-bundle.sh: prepares DIR (default .gpu, git-ignored) for one batch on a
# GPU machine without Go: cuda-tagged test binaries and CLI, the kernel
# sources, gpu-session.sh and the real datasets. Needs the CUDA driver API
# header and link stub (CUDA_HOME, default ../shared/cuda).
# Then: run `STAGES="build test run" bash DIR/gpu-session.sh DIR` there.
set -eu
cd "$(dirname "$0")/.."
DIR=${1:-.gpu}
CUDA_HOME=${CUDA_HOME:-$(cd ../shared/cuda && pwd)}
export CGO_CFLAGS="-I$PWD/kernels/cudacompat -I$CUDA_HOME/include"
export CGO_LDFLAGS="-L$CUDA_HOME/lib64/stubs"
rm -rf "$DIR" && mkdir -p "$DIR/kernels" "$DIR/datasets"
go test -tags cuda -c -ldflags='-s -w' -o "$DIR/" ./runtime ./algorithms/bfs ./algorithms/sssp ./algorithms/cc
go build -tags cuda -ldflags='-s -w' -o "$DIR/gearbox" ./cmd/gearbox
cp kernels/*.cu kernels/*.cuh kernels/gpu-session.sh kernels/gpu-plan.sh "$DIR/kernels/"
cp kernels/gpu-session.sh "$DIR/"
DS=${GEARBOX_DATASETS:-../shared/datasets}
[ -d "$DS" ] && cp -r "$DS"/. "$DIR/datasets/"
du -sh "$DIR"
