#!/usr/bin/env python3
"""Bytes of tick's static release binary per dependency, from the linker's map.

    swift build -c release --static-swift-stdlib -Xswiftc -static-executable \
        -Xlinker -Map=/tmp/tick.map
    Benchmarks/link_map_sizes.py /tmp/tick.map

Sums the allocated input sections (code, read-only data, data, unwind
tables, Swift metadata) each archive or module contributes, so the table says
what each dependency costs in the installed (stripped) file. Issue 25, item 3.
"""
import re,sys,collections
lines=open(sys.argv[1],errors='replace').read().split('\n')
start=next(i for i,l in enumerate(lines) if l.startswith('Memory map'))
sizes=collections.Counter(); secs=collections.Counter()
pend=None
rx=re.compile(r'^ ([.\w][\w.\-$]*)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$')
def cat(f):
    m=re.search(r'/release/([^/]+)\.build/',f)
    if m: return m.group(1)
    m=re.search(r'lib([^/]+?)\.a\(',f)
    if m: return 'lib'+m.group(1)
    return f.split('/')[-1][:40]
for l in lines[start:]:
    m=rx.match(l)
    if m:
        sec=m.group(1) or pend
        size=int(m.group(3),16); f=m.group(4)
        pend=None
        if sec is None or size==0 or f.startswith('*') : continue
        if not (sec.startswith('.text') or sec.startswith('.rodata') or sec.startswith('.data') or sec.startswith('.eh_frame') or sec.startswith('.gcc_except') or sec.startswith('swift5') or sec.startswith('.swift') or sec.startswith('.tbss') or sec.startswith('.tdata') ): 
            kind='other'
        else: kind=sec.split('.')[1] if sec.startswith('.') else 'swift'
        if sec.startswith(('.bss','.debug','.comment','.note','.stab','.tbss')): continue
        sizes[cat(f)]+=size; secs[(cat(f),kind)]+=size
    else:
        m2=re.match(r'^ ([.\w][\w.\-$]+)\s*$',l)
        pend=m2.group(1) if m2 else None
tot=sum(sizes.values())
for k,v in sizes.most_common(): print(f"{v/1048576:8.2f} MB  {k}")
print(f"{tot/1048576:8.2f} MB total")
