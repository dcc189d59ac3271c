#!/usr/bin/env python3
# Moves per side in game records (awale match --records): the mean and
# median, for the speeds estimate (docs/BENCHMARKS.md, "Moves per game").
import re,sys,statistics
for f in sys.argv[1:]:
    txt=open(f).read()
    ns=[]
    for g in txt.split('[Event')[1:]:
        body=g.split('\n\n',1)[1] if '\n\n' in g else ''
        toks=[t for t in body.split() if not re.match(r'^\d+\.$',t) and t not in('...','1-0','0-1','1/2-1/2','*')]
        ns.append(len(toks))
    print(f, 'games',len(ns),'mean moves per side %.1f'%(statistics.mean(ns)/2),'median %.1f'%(statistics.median(ns)/2))
