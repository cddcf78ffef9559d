#!/bin/bash
# s20-explore2.sh: CPU only on the device host. Run-to-run spread on 16 cores by worker count; the grid's SSSP by delta.
cd "$(dirname "$0")"
O=$OUT/y; mkdir -p $O
one() { # label, then gearbox run args
  local l=$1; shift
  local t0=$(date +%s.%N)
  m=$(./gearbox --log-level warn run "$@" --device cpu --sources 8 2>&1 | grep '^median' | awk '{print $5}')
  echo "$r $l $m" >> $O/runs.txt
}
for r in 1 2 3 4 5; do
  for w in 16 15 8; do
    one "grid-sssp-auto w$w" sssp --gen grid:512:512 --workers $w
    one "grid-sssp-OTBM256 w$w" sssp --gen grid:512:512 --workers $w --variant O_T_BM --delta 256
    one "kron18-sssp-auto w$w" sssp --gen kron:18 --workers $w
    one "kron18-bfs-auto w$w" bfs --gen kron:18 --workers $w
    one "enron-sssp-auto w$w" sssp --graph datasets/email-Enron.txt --undirected --workers $w
    one "enron-sssp-UBBM w$w" sssp --graph datasets/email-Enron.txt --undirected --workers $w --variant U_B_BM
    one "p2p-sssp-auto w$w" sssp --graph datasets/p2p-Gnutella31.txt --workers $w
    one "p2p-bfs-auto w$w" bfs --graph datasets/p2p-Gnutella31.txt --workers $w
  done
  for d in 128 256 512 1024; do
    one "grid-sssp-auto-d$d w16" sssp --gen grid:512:512 --delta $d
    one "grid-sssp-OTBM-d$d w16" sssp --gen grid:512:512 --delta $d --variant O_T_BM
    one "grid-sssp-OTQU-d$d w16" sssp --gen grid:512:512 --delta $d --variant O_T_QU
    GOMAXPROCS=2 taskset -c 0,1 bash -c "true"; 
  done
  for d in 128 256 512 1024; do
    r2=$r
    m=$(GOMAXPROCS=2 taskset -c 0,1 ./gearbox --log-level warn run sssp --gen grid:512:512 --delta $d --device cpu --sources 8 2>&1 | grep '^median' | awk '{print $5}'); echo "$r grid-sssp-auto-d$d c2 $m" >> $O/runs.txt
    m=$(GOMAXPROCS=2 taskset -c 0,1 ./gearbox --log-level warn run sssp --gen grid:512:512 --delta $d --variant O_T_BM --device cpu --sources 8 2>&1 | grep '^median' | awk '{print $5}'); echo "$r grid-sssp-OTBM-d$d c2 $m" >> $O/runs.txt
  done
done
tar czf $OUT/y.tgz -C $OUT y
