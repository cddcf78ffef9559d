# tab.py FILE: medians per (graph, algorithm, variant) and binary of a cpu-ab*.sh output, with ratios to the first binary.
import sys, statistics as st, collections
d=collections.defaultdict(list); bins=[]
for l in open(sys.argv[1]):
    p=l.split()
    if len(p)<6: continue
    d[(p[1],p[2],p[3],p[4])].append(float(p[5]))
    if p[4] not in bins: bins.append(p[4])
keys=sorted({k[:3] for k in d})
print(f"{'graph':22s} {'alg':5s} {'variant':7s} "+" ".join(f"{b:>12s}" for b in bins)+"  ratios to "+bins[0])
for k in keys:
    m=[st.median(d[k+(b,)]) if d.get(k+(b,)) else float('nan') for b in bins]
    print(f"{k[0]:22s} {k[1]:5s} {k[2]:7s} "+" ".join(f"{x:12.3f}" for x in m)+"  "+" ".join(f"{x/m[0]:5.2f}" for x in m[1:]))
