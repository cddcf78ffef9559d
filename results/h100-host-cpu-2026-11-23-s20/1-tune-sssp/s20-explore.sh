#!/bin/bash
# s20-explore.sh: on the device host, CPU only. Tunes SSSP's knobs on 16 and 2 cores, then A/B of the queue grain.
cd "$(dirname "$0")"
export GEARBOX_DATASETS=$PWD/datasets
O=$OUT/x; mkdir -p $O
nproc > $O/nproc.txt; lscpu > $O/lscpu.txt 2>&1
D="datasets/rome99.gr,datasets/p2p-Gnutella31.txt,datasets/wiki-Vote.txt,kron:18,urand:18,grid:512:512"
U="datasets/email-Enron.txt,datasets/ca-GrQc.txt,datasets/facebook_combined.txt"
K="--device cpu --algorithms sssp --sources 4 --repeats 2 --thresholds thresholds.toml --sample-every= --delta= --threads-per-block= --alpha= --beta= --t3 0.0005,0.001,0.002,0.005,0.01,0.02 --t2 16,64,256,1024 --t1 4,8,16,32,64 --delta-factor 2,4,8,16,32,64 --bucket-edges 0,4096,16384,65536,262144 --ordered-min-vertices 0,65536,1048576"
for c in 16 2; do
  list=0-15; [ $c = 2 ] && list=0,1
  GOMAXPROCS=$c taskset -c $list timeout 200 ./gearbox --log-level warn tune $K --graphs $D --out-dir $O/tune-d-cpu$c > $O/tune-d-cpu$c.txt 2>&1
  GOMAXPROCS=$c taskset -c $list timeout 100 ./gearbox --log-level warn tune $K --undirected --graphs $U --out-dir $O/tune-u-cpu$c > $O/tune-u-cpu$c.txt 2>&1
done
tar czf $OUT/x.tgz -C $OUT x
