#!/bin/bash
# cpu-ab2.sh CORES CPULIST ROUNDS OUT "GRAPHS" "CFGS" BIN...: CLIs side by side on the CPU backend.
cores=$1 list=$2 rounds=$3 out=$4 graphs=$5 cfgs=$6; shift 6
for r in $(seq $rounds); do
 for g in $graphs; do
  in="--gen $g"; [ -f "$g" ] && in="--graph $g"
  case $g in *Enron*|*GrQc*|*facebook*) in="$in --undirected" ;; esac
  for cfg in $cfgs; do
   alg=${cfg%:*} v=${cfg#*:}
   for b in "$@"; do
    m=$(GOMAXPROCS=$cores taskset -c $list ./$b --log-level warn run $alg $in --device cpu --variant $v --sources 8 2>&1 | grep '^median' | awk '{print $5}')
    echo "$r $(basename $g) $alg $v $b $m" >> $out
   done
  done
 done
done
