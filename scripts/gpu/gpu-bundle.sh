#!/bin/bash
# gpu-bundle.sh: prepares DIR (default .gpu, git-ignored) for one batch on a
# GPU machine without Go: the cuda-tagged test binaries of every package that
# has cuda tests, the CLI, the kernel sources, the scripts of scripts/gpu and
# the datasets. Needs the CUDA driver API header and link stub (CUDA_HOME,
# default ../shared/cuda from the repository root).
# Then, on the GPU machine: `bash DIR/gpu-session.sh DIR` (STAGES="build test"
# by default) or `bash DIR/gpu-plan.sh tests|bench|ab`.
# REF=<commit> also bundles a CLI built from that commit (gearbox-ref.gz, for
# gpu-plan.sh ab) and that commit's thresholds.toml (thresholds-ref.toml).
set -eu
cd "$(dirname "$0")/../.."
DIR=${1:-.gpu}
CUDA_HOME=${CUDA_HOME:-$(cd ../shared/cuda && pwd)}
export CGO_ENABLED=1
export CGO_CFLAGS="-I$PWD/kernels/cudacompat -I$CUDA_HOME/include"
export CGO_LDFLAGS="-L$CUDA_HOME/lib64/stubs"
rm -rf "$DIR" && mkdir -p "$DIR/kernels" "$DIR/datasets"
# Every package with a cuda-tagged test file; each gives DIR/<package>.test.
PKGS=$(grep -rlE --include='*_test.go' '^//go:build ([^!]*&& *)?cuda( |$)' . | xargs -n1 dirname | sort -u)
go test -tags cuda -c -ldflags='-s -w' -o "$DIR/" $PKGS
# -buildvcs=true: the reports' commit comes from the build (GOFLAGS may turn it off), not
# from git describe on the GPU machine, whose copy of .git may be stale.
go build -buildvcs=true -tags cuda -ldflags='-s -w' -o "$DIR/gearbox" ./cmd/gearbox
if [ -n "${REF:-}" ]; then
	# A reference CLI built from commit REF with its own embedded fatbin
	# (gzipped: the bundle must stay small enough to carry).
	WT=$(mktemp -d)
	git worktree add -q --detach "$WT" "$REF"
	(cd "$WT" && CGO_CFLAGS="-I$WT/kernels/cudacompat -I$CUDA_HOME/include" \
		go build -buildvcs=true -tags cuda -ldflags='-s -w' -o "$OLDPWD/$DIR/gearbox-ref" ./cmd/gearbox)
	git worktree remove --force "$WT"
	git worktree prune
	gzip -9 "$DIR/gearbox-ref"
	git rev-parse --short "$REF" >"$DIR/gearbox-ref.commit"
	git show "$REF:thresholds.toml" >"$DIR/thresholds-ref.toml"
fi
cp kernels/*.cu kernels/*.cuh "$DIR/kernels/"
cp scripts/gpu/gpu-session.sh scripts/gpu/gpu-plan.sh scripts/gpu/gpu-run.sh "$DIR/"
cp thresholds.toml "$DIR/" # the shipped thresholds, a starting point for tune
DS=${GEARBOX_DATASETS:-../shared/datasets}
[ -d "$DS" ] && cp -r "$DS"/. "$DIR/datasets/"
du -sh "$DIR"
