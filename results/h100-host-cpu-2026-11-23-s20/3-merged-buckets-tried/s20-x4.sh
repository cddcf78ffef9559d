#!/bin/bash
# s20-x4.sh: CPU only on the device host. Merged buckets' variants (env) on 2 and 16 cores.
cd "$(dirname "$0")"
O=$OUT/w; mkdir -p $O
G="grid:512:512 datasets/rome99.gr datasets/p2p-Gnutella31.txt datasets/wiki-Vote.txt kron:18 urand:18 datasets/email-Enron.txt datasets/ca-GrQc.txt datasets/facebook_combined.txt"
S="base:0:0:0:0 m8:4096:8:0:0 m8b4:4096:8:0:4 m8b1:4096:8:0:1 m8L:4096:8:1:0 m8Lb4:4096:8:1:4"
for r in 1 2 3 4; do for c in 16 2; do
  list=0-15; [ $c = 2 ] && list=0,1
  for g in $G; do
    in="--gen $g"; [ -f "$g" ] && in="--graph $g"
    case $g in *Enron*|*GrQc*|*facebook*) in="$in --undirected" ;; esac
    for s in $S; do IFS=: read n t cap last bud <<< "$s"
      m=$(GEARBOX_X_TARGET=$t GEARBOX_X_MERGECAP=$cap GEARBOX_X_LAST=$last GEARBOX_X_BUDGET=$bud GOMAXPROCS=$c taskset -c $list ./gearbox --log-level warn run sssp $in --device cpu --sources 8 2>&1 | grep '^median' | awk '{print $5}')
      echo "$r c$c $(basename $g) $n $m" >> $O/ab.txt
    done
  done
done; done
tar czf $OUT/w.tgz -C $OUT w
