#!/bin/bash
# cpu-ab.sh CORES CPULIST ROUNDS OUT: this tree's CLI (new) against gearbox-ref (old) on the CPU backend.
cores=$1 list=$2 rounds=$3 out=$4
D=datasets
for r in $(seq $rounds); do
 for g in $D/rome99.gr $D/p2p-Gnutella31.txt $D/wiki-Vote.txt $D/email-Enron.txt $D/ca-GrQc.txt grid:256:256 kron:18; do
  in="--gen $g"; [ -f "$g" ] && in="--graph $g"
  case $g in *Enron*|*GrQc*) in="$in --undirected" ;; esac
  for cfg in "bfs auto" "bfs O_T_BM" "bfs O_T_QU" "sssp auto"; do
   set -- $cfg
   for side in old new; do
    b=./gearbox-ref; [ $side = new ] && b=./gearbox
    m=$(GOMAXPROCS=$cores taskset -c $list $b --log-level warn run $1 $in --device cpu --variant $2 --sources 8 2>&1 | grep '^median' | awk '{print $5}')
    echo "$r $(basename $g) $1 $2 $side $m" >> $out
   done
  done
 done
done
