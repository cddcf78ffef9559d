import collections,statistics,sys
d=collections.OrderedDict()
for l in open(sys.argv[1]):
    p=l.split()
    if len(p)<6: continue
    d.setdefault(p[1]+" "+p[3],collections.OrderedDict()).setdefault(p[4],[]).append(float(p[5]))
for g,s in d.items():
    ks=list(s); base=statistics.median(s[ks[0]])
    print(f"{g:28s}"+"  ".join(f"{k} {statistics.median(v):7.3f} ({statistics.median(v)/base:.2f})" for k,v in s.items()))
