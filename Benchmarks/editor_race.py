#!/usr/bin/env python3
"""How many saves an editor and `tick add` lose to each other (issue 25, item 5).

An editor saves lists/work.json every INTERVAL while four `tick add` loops
write the same list, for SECONDS; at the end every editor save (a unique key
`x-editor-N`, and a marker task every 8th save) and every add that exited 0
is looked for in the file. Three editors:

  naive     re-reads the file before each save, writes a temp file and
            renames it over the file (as `sed -i`, `jq ... | sponge` and most
            scripts do). It checks nothing: a tick write that lands between
            its read and its rename is overwritten (the add is lost), and if
            it reads the version tick swapped in before tick merged the
            editor's previous save back, that save is lost.
  buffer    vim-like: holds its buffer, and before each save compares the
            file's inode, size and mtime with what it loaded; when they
            changed it reloads (as a user answers vim's "file changed" prompt
            with L) and re-applies its edit, then renames its temp file over.
  exchange  the careful editor of Tests/TickE2ETests/RaceEditorTests.swift:
            swaps with RENAME_EXCHANGE and merges what it swapped out.

Usage: Benchmarks/editor_race.py TICK [--editor naive|buffer|exchange]
                                      [--seconds 15] [--interval 0.02] [--runs 1]
Prints one line per run and a JSON summary line.
"""
import argparse
import ctypes
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid

libc = ctypes.CDLL(None, use_errno=True)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def temp_with(path, data):
    tmp = os.path.join(os.path.dirname(path), '.%s.editor-%s.tmp' % (os.path.basename(path), uuid.uuid4().hex[:8]))
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.fsync(fd)
    os.close(fd)
    return tmp


def encode(doc):
    return (json.dumps(doc, indent=2, ensure_ascii=False) + '\n').encode()


def edit(doc, i):
    """The editor's change number i: a key, and every 8th time a marker task."""
    now = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())
    doc['x-editor-%d' % i] = i
    if i % 8 == 0:
        doc['tasks'].append({'id': str(uuid.uuid4()), 'title': 'editor-%d' % i, 'state': 'open',
                             'createdAt': now, 'modifiedAt': now})


def signature(path):
    st = os.stat(path)
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def naive_editor(path, stop, interval, saves):
    i = 0
    while not stop.is_set():
        doc = json.loads(read(path))
        edit(doc, i)
        tmp = temp_with(path, encode(doc))
        os.rename(tmp, path)
        saves.append(i)
        i += 1
        time.sleep(interval)


def buffer_editor(path, stop, interval, saves):
    loaded = signature(path)
    doc = json.loads(read(path))
    i = 0
    while not stop.is_set():
        edit(doc, i)
        if signature(path) != loaded:
            # "The file has been changed since reading it": reload, edit again.
            loaded = signature(path)
            doc = json.loads(read(path))
            edit(doc, i)
        data = encode(doc)
        tmp = temp_with(path, data)
        os.rename(tmp, path)
        loaded = signature(path)
        saves.append(i)
        i += 1
        time.sleep(interval)


def exchange_editor(path, stop, interval, saves):
    def exchange(a, b):
        if libc.renameat2(-100, a.encode(), -100, b.encode(), 2) != 0:
            e = ctypes.get_errno()
            raise OSError(e, os.strerror(e))

    def union(mine, other):
        ids = {t['id'] for t in other['tasks']}
        merged = dict(other)
        merged['tasks'] = other['tasks'] + [t for t in mine['tasks'] if t['id'] not in ids]
        for k, v in mine.items():
            merged.setdefault(k, v)
        return merged

    i = 0
    while not stop.is_set():
        before = read(path)
        doc = json.loads(before)
        edit(doc, i)
        tries = 0
        while True:
            data = encode(doc)
            tmp = temp_with(path, data)
            exchange(tmp, path)
            out = read(tmp)
            os.unlink(tmp)
            if out == before:
                break
            tries += 1
            time.sleep(random.uniform(0, 0.001 * (1 << min(tries, 6))))
            before = data
            doc = union(doc, json.loads(out))
        saves.append(i)
        i += 1
        time.sleep(interval)


EDITORS = {'naive': naive_editor, 'buffer': buffer_editor, 'exchange': exchange_editor}


def run_once(tick, editor, seconds, interval):
    root = tempfile.mkdtemp(prefix='tick-editor-race-')
    try:
        env = dict(os.environ, TICK_STORE=os.path.join(root, 'store'),
                   XDG_CACHE_HOME=os.path.join(root, 'cache'), XDG_STATE_HOME=os.path.join(root, 'state'),
                   XDG_CONFIG_HOME=os.path.join(root, 'config'), XDG_DATA_HOME=os.path.join(root, 'data'),
                   NO_COLOR='1')
        os.makedirs(env['TICK_STORE'])
        subprocess.run([tick, 'lists', 'add', 'Work'], env=env, check=True, stdout=subprocess.DEVNULL)
        path = os.path.join(env['TICK_STORE'], 'lists', 'work.json')
        stop = threading.Event()
        saves = []
        adds = [[] for _ in range(4)]
        failures = []

        def adder(p):
            n = 0
            while not stop.is_set():
                n += 1
                title = 'add-%d-%d' % (p, n)
                r = subprocess.run([tick, 'add', 'list:Work', title], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                if r.returncode == 0:
                    adds[p].append(title)
                else:
                    failures.append(r.stderr.decode(errors='replace').strip())

        threads = [threading.Thread(target=adder, args=(p,)) for p in range(4)]
        threads.append(threading.Thread(target=EDITORS[editor], args=(path, stop, interval, saves)))
        for t in threads:
            t.start()
        time.sleep(seconds)
        stop.set()
        for t in threads:
            t.join()
        doc = json.loads(read(path))
        titles = {t['title'] for t in doc['tasks']}
        lost_saves = [i for i in saves if doc.get('x-editor-%d' % i) != i or (i % 8 == 0 and 'editor-%d' % i not in titles)]
        all_adds = [a for per in adds for a in per]
        lost_adds = [a for a in all_adds if a not in titles]
        return {'editor': editor, 'saves': len(saves), 'lostSaves': len(lost_saves),
                'adds': len(all_adds), 'lostAdds': len(lost_adds), 'failedAdds': len(failures),
                'failure': failures[0] if failures else None}
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('tick')
    ap.add_argument('--editor', choices=sorted(EDITORS), default='naive')
    ap.add_argument('--seconds', type=float, default=15)
    ap.add_argument('--interval', type=float, default=0.02)
    ap.add_argument('--runs', type=int, default=1)
    args = ap.parse_args()
    results = []
    for _ in range(args.runs):
        r = run_once(os.path.abspath(args.tick), args.editor, args.seconds, args.interval)
        results.append(r)
        print('%s editor: %d saves, %d lost; %d adds, %d lost; %d adds failed%s' % (
            r['editor'], r['saves'], r['lostSaves'], r['adds'], r['lostAdds'], r['failedAdds'],
            (' (%s)' % r['failure']) if r['failure'] else ''))
        sys.stdout.flush()
    print(json.dumps({'tick': args.tick, 'editor': args.editor, 'seconds': args.seconds,
                      'interval': args.interval, 'runs': results}))


if __name__ == '__main__':
    main()
