import collections,statistics,sys
d=collections.OrderedDict()
for l in open(sys.argv[1]):
    p=l.split()
    if len(p)<5: continue
    d.setdefault(p[1]+" "+p[2],collections.OrderedDict()).setdefault(p[3],[]).append(float(p[4]))
for g,s in d.items():
    ks=list(s)
    base=statistics.median(s[ks[0]])
    print(f"{g:26s}"+"  ".join(f"{k} {statistics.median(v):8.3f} ({statistics.median(v)/base:.2f})" for k,v in s.items()))
