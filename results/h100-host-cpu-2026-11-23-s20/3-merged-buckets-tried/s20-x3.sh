#!/bin/bash
# s20-x3.sh: CPU only on the device host. Work-targeted buckets per worker (env GEARBOX_X_TARGET, GEARBOX_X_MERGECAP) on 2 and 16 cores.
cd "$(dirname "$0")"
O=$OUT/z; mkdir -p $O
G="grid:512:512 datasets/rome99.gr datasets/p2p-Gnutella31.txt datasets/wiki-Vote.txt kron:18 urand:18 datasets/email-Enron.txt datasets/ca-GrQc.txt datasets/facebook_combined.txt"
for r in 1 2 3; do for c in 16 2; do
  list=0-15; [ $c = 2 ] && list=0,1
  for g in $G; do
    in="--gen $g"; [ -f "$g" ] && in="--graph $g"
    case $g in *Enron*|*GrQc*|*facebook*) in="$in --undirected" ;; esac
    for s in 0:8 2048:8 4096:8 8192:8 4096:16; do t=${s%:*} cap=${s#*:}
      m=$(GEARBOX_X_TARGET=$t GEARBOX_X_MERGECAP=$cap GOMAXPROCS=$c taskset -c $list ./gearbox --log-level warn run sssp $in --device cpu --sources 8 2>&1 | grep '^median' | awk '{print $5}')
      echo "$r c$c $(basename $g) $s $m" >> $O/ab.txt
    done
  done
done; done
tar czf $OUT/z.tgz -C $OUT z
