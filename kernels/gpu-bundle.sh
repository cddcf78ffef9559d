#!/bin/bash
# gpu-bundle.sh: prepares DIR (default .gpu, git-ignored) for one batch on a
# GPU machine without Go: cuda-tagged test binaries and CLI, the kernel
# sources, gpu-session.sh and the real datasets. Needs the CUDA driver API
# header and link stub (CUDA_HOME, default ../shared/cuda).
# Then: run `STAGES="build test run" bash DIR/gpu-session.sh DIR` there.
# REF=<commit> also bundles a CLI built from that commit (gpu-plan.sh ab).
set -eu
cd "$(dirname "$0")/.."
DIR=${1:-.gpu}
CUDA_HOME=${CUDA_HOME:-$(cd ../shared/cuda && pwd)}
export CGO_CFLAGS="-I$PWD/kernels/cudacompat -I$CUDA_HOME/include"
export CGO_LDFLAGS="-L$CUDA_HOME/lib64/stubs"
rm -rf "$DIR" && mkdir -p "$DIR/kernels" "$DIR/datasets"
go test -tags cuda -c -ldflags='-s -w' -o "$DIR/" ./gpu ./workset ./runtime ./algorithms/bfs ./algorithms/sssp ./algorithms/cc
# -buildvcs=true: the reports' commit comes from the build (GOFLAGS may turn it off), not
# from git describe on the GPU machine, whose copy of .git may be stale.
go build -buildvcs=true -tags cuda -ldflags='-s -w' -o "$DIR/gearbox" ./cmd/gearbox
if [ -n "${REF:-}" ]; then
	# A reference CLI built from commit REF with its own embedded fatbin,
	# for gpu-plan.sh's A/B call (gzipped: the bundle travels under 64 MiB).
	WT=$(mktemp -d)
	git worktree add -q --detach "$WT" "$REF"
	(cd "$WT" && CGO_CFLAGS="-I$WT/kernels/cudacompat -I$CUDA_HOME/include" \
		go build -buildvcs=true -tags cuda -ldflags='-s -w' -o "$OLDPWD/$DIR/gearbox-ref" ./cmd/gearbox)
	git worktree remove --force "$WT"
	git -C "$WT/.." worktree prune 2>/dev/null || git worktree prune
	gzip -9 "$DIR/gearbox-ref"
	git rev-parse --short "$REF" >"$DIR/gearbox-ref.commit"
	git show "$REF:thresholds.toml" >"$DIR/thresholds-ref.toml"
fi
cp kernels/*.cu kernels/*.cuh kernels/gpu-session.sh kernels/gpu-plan.sh "$DIR/kernels/"
cp kernels/gpu-session.sh "$DIR/"
cp thresholds.toml "$DIR/" # the shipped thresholds, a starting point for tune
DS=${GEARBOX_DATASETS:-../shared/datasets}
[ -d "$DS" ] && cp -r "$DS"/. "$DIR/datasets/"
du -sh "$DIR"
