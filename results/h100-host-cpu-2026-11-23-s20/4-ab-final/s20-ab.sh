#!/bin/bash
# s20-ab.sh ROUNDS: SSSP auto, a6cb6a7 (gearbox-ref) against this commit (gearbox), on 2 and 16 cores.
cd "$(dirname "$0")"
O=$OUT/ab; mkdir -p $O
G="grid:512:512 datasets/rome99.gr datasets/p2p-Gnutella31.txt datasets/wiki-Vote.txt kron:18 urand:18 datasets/email-Enron.txt datasets/ca-GrQc.txt datasets/facebook_combined.txt"
for r in $(seq $1); do for c in 16 2; do
  list=0-15; [ $c = 2 ] && list=0,1
  for g in $G; do
    in="--gen $g"; [ -f "$g" ] && in="--graph $g"
    case $g in *Enron*|*GrQc*|*facebook*) in="$in --undirected" ;; esac
    for b in gearbox-ref gearbox; do
      m=$(GOMAXPROCS=$c taskset -c $list ./$b --log-level warn run sssp $in --device cpu --sources 8 2>&1 | grep '^median' | awk '{print $5}')
      echo "$r c$c $(basename $g) $b $m" >> $O/ab.txt
    done
  done
done; done
