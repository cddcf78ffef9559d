#!/bin/bash
# cpu-bench.sh CORES CPULIST OUTDIR: gearbox bench on the CPU backend (BFS, SSSP), directed and undirected graphs.
cores=$1 list=$2 out=$3
export GEARBOX_DATASETS=$PWD/datasets
GOMAXPROCS=$cores taskset -c $list ./gearbox --log-level warn bench --device cpu --algorithms bfs,sssp --sources 4 --repeats 3 \
  --graphs datasets/rome99.gr,datasets/p2p-Gnutella31.txt,datasets/wiki-Vote.txt,kron:18,urand:18,grid:512:512 --out-dir $out/directed > $out/directed.txt 2>&1
GOMAXPROCS=$cores taskset -c $list ./gearbox --log-level warn bench --device cpu --algorithms bfs,sssp --sources 4 --repeats 3 --undirected \
  --graphs datasets/email-Enron.txt,datasets/ca-GrQc.txt,datasets/facebook_combined.txt --out-dir $out/undirected > $out/undirected.txt 2>&1
