#!/usr/bin/env python3
"""Generate a synthetic, deterministic tick store for benchmarks.

    python3 Benchmarks/gen_store.py --tasks N --lists M --seed S --out DIR \
        [--taskwarrior FILE] [--meta FILE]

Writes DIR/inbox.json and DIR/lists/<slug>.json in tick's canonical form
(Docs/FORMAT.md section 6). The same arguments always produce byte-identical
output: all randomness (including UUIDs) comes from random.Random(seed) and
every timestamp is relative to the fixed base date 2026-11-21.

Layout: about 1% of the tasks go to the inbox, exactly 500 to a list named
"Bench 500" (used by the add/done benchmarks) and the rest are spread evenly
over the other M-1 lists.

--taskwarrior FILE  also write the same tasks as Taskwarrior 2.6 import JSON
                    (one JSON array); see map_taskwarrior() for the mapping.
--profile P         history (default), uniform or heavy: which tasks are
                    done, and (heavy) a small vocabulary; see Gen.task().
--meta FILE         write a small JSON summary (lists, counts, a suggested
                    search word, ...) for Benchmarks/run.sh.
"""

import argparse
import datetime as dt
import json
import os
import re
import sys
import unicodedata
import uuid

import random

BASE = dt.datetime(2026, 11, 21, 0, 0, 0, tzinfo=dt.timezone.utc)
BASE_DATE = BASE.date()
BENCH_LIST = "Bench 500"
BENCH_SIZE = 500

# --------------------------------------------------------------------------
# Vocabulary

TITLE_VERBS = [
    "Call", "Email", "Buy", "Fix", "Review", "Write", "Plan", "Book", "Send",
    "Clean", "Check", "Update", "Prepare", "Draft", "Schedule", "Order",
    "Return", "Pay", "Renew", "Cancel", "Organize", "Read", "Finish", "Test",
    "Refactor", "Deploy", "Archive", "Backup", "Print", "Sign", "Ask", "Pick up",
    "Drop off", "Research", "Compare", "Install", "Measure", "Paint", "Water",
    "Repair", "Sort", "Submit", "File", "Translate", "Sketch", "Outline",
]
TITLE_WORDS = [
    "invoice", "report", "dentist", "groceries", "roadmap", "budget", "taxes",
    "insurance", "passport", "visa", "flights", "hotel", "train", "tickets",
    "garden", "kitchen", "bathroom", "garage", "bike", "car", "tyres", "oil",
    "laptop", "printer", "router", "backup", "photos", "album", "letter",
    "contract", "lease", "landlord", "plumber", "electrician", "doctor",
    "pharmacy", "prescription", "vet", "cat", "dog", "birthday", "present",
    "party", "wedding", "conference", "talk", "slides", "demo", "release",
    "changelog", "tests", "pipeline", "server", "database", "migration",
    "index", "cache", "metrics", "dashboard", "alerts", "review", "interview",
    "candidate", "onboarding", "team", "meeting", "agenda", "minutes", "notes",
    "design", "mockups", "feedback", "survey", "customer", "supplier", "quote",
    "order", "parcel", "post", "bank", "account", "transfer", "receipt",
    "expenses", "pension", "school", "homework", "library", "books", "novel",
    "podcast", "course", "guitar", "piano", "lessons", "gym", "running",
    "shoes", "jacket", "winter", "summer", "holiday", "trip", "camping", "tent",
    "boots", "map", "recipe", "dinner", "lunch", "breakfast", "bread", "coffee",
    "tea", "wine", "cheese", "market", "neighbours", "friends", "family",
    "parents", "kids", "grandma", "uncle", "cousin", "quarterly", "weekly",
    "monthly", "annual", "draft", "final", "urgent", "new", "old", "shared",
    "blue", "green", "red", "small", "big", "second", "spare", "broken",
    "Lisbon", "Berlin", "Paris", "Tokyo", "Oslo", "Madrid", "Vienna",
    # non-ASCII words (NFC)
    "Café", "Müller", "日本", "Zürich", "São Paulo", "Straße", "naïve",
    "résumé", "Ελλάδα", "Kraków", "Ångström", "piñata", "crème brûlée",
    "Østergade", "Малина", "北京", "façade", "Göteborg",
]
NOTE_SENTENCES = [
    "Ask about the second option before deciding.",
    "The reference number is in the email from last week.",
    "Bring the blue folder with the receipts.",
    "Check whether the warranty still covers it.",
    "See the shared drive: /projects/2026/plans.",
    "Keep it short, one page at most.",
    "Müller said the price includes delivery.",
    "Café on the corner opens at 8.",
    "Call before 5pm, they close early on Fridays.",
    "Needs the signed copy, not a scan.",
    "Budget is about 200 € including VAT.",
    "Compare with last year's numbers first.",
    "The form is at https://example.org/forms/a-12.",
    "Remember the \"new\" address, not the old one.",
    "Backslashes in paths like C:\\Users\\sam are fine.",
    "Tokyo office (日本) needs it by their Monday morning.",
    "Low priority unless the deadline moves.",
    "Split into smaller steps if this drags on.",
    "Waiting on feedback from the team.",
    "Talk to Ελένη about the translation.",
]
TAG_POOL = [
    "home", "work", "errand", "phone", "email", "admin", "health", "finance",
    "taxes", "travel", "car", "garden", "kids", "school", "shopping", "post",
    "review", "bug", "planning", "q1", "q2", "q3", "q4", "deep-work",
    "waiting", "someday", "reading", "music", "sport", "cooking", "friends",
    "family", "gift", "repair", "cleaning", "paperwork", "urgent", "küche",
    "café", "日本",
]
LIST_AREAS = [
    "Work", "Home", "Garden", "Errands", "Reading", "Travel", "Finance",
    "Health", "Kids", "School", "Music", "Sport", "Cooking", "Friends",
    "Family", "Car", "Projects", "Admin", "Learning", "Writing", "Photos",
    "Renovation", "Taxes", "Team", "Clients", "Research", "Ops", "Design",
    "Café", "Müller GmbH", "Zürich Office", "日本 Trip", "Küche", "Ångström Lab",
]
LIST_QUALIFIERS = [
    "", "Q1", "Q2", "Q3", "Q4", "2026", "2027", "Backlog", "Someday", "Weekly",
    "Shared", "Personal", "Alpha", "Beta", "Gamma", "Delta", "North", "South",
    "East", "West", "Red", "Blue", "Green", "Archive",
]
# The "heavy" profile (--profile heavy): a small vocabulary, so that one
# common word (SEARCH_WORD) is in about 16% of the titles and every other word
# repeats across thousands of tasks; and a backlog of overdue open tasks.
SEARCH_WORD = "invoice"
HEAVY_COMMON_P = 0.05
HEAVY_WORDS = [
    "report", "budget", "taxes", "flights", "hotel", "garden", "kitchen",
    "car", "laptop", "backup", "contract", "doctor", "birthday", "slides",
    "release", "server", "database", "meeting", "design", "customer",
    "order", "bank", "school", "course", "holiday", "dinner", "Café",
    "Müller", "日本", "Straße",
]
HEAVY_PAST_DONE = 0.85

COLORS = ["#3b82f6", "#ef4444", "#10b981", "#f59e0b", "#8b5cf6", "#ec4899",
          "#14b8a6", "#6b7280"]

# --------------------------------------------------------------------------
# Canonical JSON writer (Docs/FORMAT.md section 6)

_ESC = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
        "\b": "\\b", "\f": "\\f"}


def _q(s):
    out = []
    for ch in s:
        e = _ESC.get(ch)
        if e is not None:
            out.append(e)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _scalar(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _q(v)
    raise TypeError("unsupported scalar %r" % (v,))


def _write(v, ind, out):
    if isinstance(v, dict):
        if not v:
            out.append("{}")
            return
        out.append("{\n")
        items = list(v.items())
        for i, (k, x) in enumerate(items):
            out.append("  " * (ind + 1) + _q(k) + ": ")
            _write(x, ind + 1, out)
            out.append(",\n" if i + 1 < len(items) else "\n")
        out.append("  " * ind + "}")
    elif isinstance(v, list):
        if not v:
            out.append("[]")
        elif all(not isinstance(x, (dict, list)) for x in v):
            out.append("[" + ", ".join(_scalar(x) for x in v) + "]")
        else:
            out.append("[\n")
            for i, x in enumerate(v):
                out.append("  " * (ind + 1))
                _write(x, ind + 1, out)
                out.append(",\n" if i + 1 < len(v) else "\n")
            out.append("  " * ind + "]")
    else:
        out.append(_scalar(v))


def canonical_json(obj):
    out = []
    _write(obj, 0, out)
    out.append("\n")
    return "".join(out)


# --------------------------------------------------------------------------
# Values

def ts(d):
    return d.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def slugify(name, taken):
    s = unicodedata.normalize("NFC", name).lower()
    s = "".join(ch if unicodedata.category(ch)[0] in "LN" else "-" for ch in s)
    s = re.sub(r"-+", "-", s).strip("-.")
    s = s[:64].rstrip("-") or "list"
    base, n = s, 2
    while s in taken:
        s = "%s-%d" % (base, n)
        n += 1
    taken.add(s)
    return s


class Gen:
    def __init__(self, seed, profile="history"):
        self.r = random.Random(seed)
        self.profile = profile

    def uuid(self):
        return str(uuid.UUID(int=self.r.getrandbits(128), version=4))

    def instant(self, lo_days, hi_days, step_minutes=1):
        """A whole-second instant BASE + [lo_days, hi_days)."""
        secs = self.r.randrange(int(lo_days * 86400), int(hi_days * 86400))
        if step_minutes > 1:
            secs -= secs % (step_minutes * 60)
        return BASE + dt.timedelta(seconds=secs)

    def title(self):
        n = self.r.randint(2, 7)
        words = [self.r.choice(TITLE_VERBS)]
        if self.profile == "heavy":
            # Small vocabulary: the search word is drawn for a word slot with
            # probability HEAVY_COMMON_P (about 16% of titles contain it),
            # the other slots from HEAVY_WORDS (each word in ~11% of titles).
            for _ in range(n - 1):
                if self.r.random() < HEAVY_COMMON_P:
                    words.append(SEARCH_WORD)
                else:
                    words.append(self.r.choice(HEAVY_WORDS))
        else:
            words += [self.r.choice(TITLE_WORDS) for _ in range(n - 1)]
        return " ".join(words)

    def notes(self):
        k = self.r.randint(1, 3)
        sents = [self.r.choice(NOTE_SENTENCES) for _ in range(k)]
        if k > 1 and self.r.random() < 0.5:
            return "\n".join(("- " + s) if self.r.random() < 0.5 else s
                             for s in sents)
        return " ".join(sents)

    def task(self):
        r = self.r
        t = {"id": self.uuid(), "title": self.title()}
        u = r.random()
        due_day = None
        if r.random() < 0.40:
            off = r.randint(-60, 120)
            due_day = BASE_DATE + dt.timedelta(days=off)
            if r.random() < 0.5:
                t["due"] = due_day.isoformat()
            else:
                hh = r.randint(7, 20)
                mm = r.choice([0, 0, 15, 30, 45])
                t["due"] = ts(dt.datetime(due_day.year, due_day.month,
                                          due_day.day, hh, mm,
                                          tzinfo=dt.timezone.utc))
        if self.profile == "heavy":
            # Years of use with a backlog: one in seven tasks due in the
            # past is still open (tick today lists about 5% of the store).
            if due_day is not None and due_day < BASE_DATE:
                p_done = HEAVY_PAST_DONE
            elif due_day is None:
                p_done = 0.55
            else:
                p_done = 0.05
            state = "done" if u < p_done else ("active" if u < p_done + 0.01 else "open")
        elif self.profile == "uniform":
            # Worst case: a quarter done whatever the date, so about a tenth
            # of all tasks are overdue (today lists ~12% of the store).
            state = "done" if u < 0.25 else ("active" if u < 0.30 else "open")
        else:
            # A store that has been used for years: what was due in the past
            # is mostly done, undated tasks are about half done, future ones
            # mostly open.
            if due_day is not None and due_day < BASE_DATE:
                p_done = 0.95
            elif due_day is None:
                p_done = 0.55
            else:
                p_done = 0.05
            state = "done" if u < p_done else ("active" if u < p_done + 0.03 else "open")
        t["state"] = state
        if r.random() < 0.10:
            off = r.randint(-30, 60)
            if due_day is not None:
                off = min(off, (due_day - BASE_DATE).days)
            t["scheduled"] = (BASE_DATE + dt.timedelta(days=off)).isoformat()
        if r.random() < 0.10:
            if due_day is not None:
                d = dt.datetime(due_day.year, due_day.month, due_day.day, 8,
                                tzinfo=dt.timezone.utc) - dt.timedelta(
                                    days=r.choice([0, 0, 1, 2, 7]))
            else:
                d = self.instant(-30, 60, 15)
            t["remind"] = ts(d)
        if r.random() < 0.30:
            t["priority"] = "must" if r.random() < 0.5 else "flexible"
        if r.random() < 0.30:
            t["energy"] = r.choice(["high", "low", "any"])
        if r.random() < 0.50:
            t["tags"] = r.sample(TAG_POOL, r.randint(1, 3))
        if r.random() < 0.20:
            t["notes"] = self.notes()
        created = self.instant(-365, 0)
        span = int((BASE - created).total_seconds())
        if r.random() < 0.4:
            modified = created
        else:
            modified = created + dt.timedelta(seconds=r.randrange(0, span + 1))
        t["createdAt"] = ts(created)
        t["modifiedAt"] = ts(modified)
        if state == "done":
            if r.random() < 0.8:
                completed = modified
            else:
                completed = created + (modified - created) * r.random()
                completed = completed.replace(microsecond=0)
            t["completedAt"] = ts(completed)
        if r.random() < 0.02:
            t["x-estimate"] = r.randint(1, 13)
        return t


def list_names(gen, count):
    names, seen = [], set()
    combos = [(a, q) for a in LIST_AREAS for q in LIST_QUALIFIERS]
    gen.r.shuffle(combos)
    i = 0
    while len(names) < count:
        if i < len(combos):
            a, q = combos[i]
            name = (a + " " + q).strip()
        else:
            name = "%s %d" % (gen.r.choice(LIST_AREAS), i)
        i += 1
        key = name.lower()
        if key in seen or key == BENCH_LIST.lower() or key == "inbox":
            continue
        seen.add(key)
        names.append(name)
    return names


def build(n_tasks, n_lists, seed, profile="history"):
    if n_lists < 2:
        sys.exit("gen_store: --lists must be at least 2 (one is 'Bench 500')")
    n_inbox = max(1, round(n_tasks * 0.01))
    rest = n_tasks - n_inbox - BENCH_SIZE
    if rest < n_lists - 1:
        sys.exit("gen_store: --tasks too small: need at least %d"
                 % (n_inbox + BENCH_SIZE + n_lists - 1))
    g = Gen(seed, profile)
    others = list_names(g, n_lists - 1)
    # Put "Bench 500" at a seeded position among the lists.
    names = list(others)
    names.insert(g.r.randrange(len(names) + 1), BENCH_LIST)
    per, extra = divmod(rest, n_lists - 1)
    taken = set()
    files = []
    k = 0
    for name in names:
        if name == BENCH_LIST:
            size = BENCH_SIZE
        else:
            size = per + (1 if k < extra else 0)
            k += 1
        created = g.instant(-400, -300)
        modified = created if g.r.random() < 0.6 else g.instant(-300, -1)
        doc = {"version": 1, "id": g.uuid(), "name": name}
        if g.r.random() < 0.5:
            doc["color"] = g.r.choice(COLORS)
        doc["createdAt"] = ts(created)
        doc["modifiedAt"] = ts(modified)
        doc["tasks"] = [g.task() for _ in range(size)]
        files.append(("lists/%s.json" % slugify(name, taken), doc))
    created = g.instant(-400, -300)
    inbox = {"version": 1, "id": g.uuid(), "createdAt": ts(created),
             "modifiedAt": ts(created),
             "tasks": [g.task() for _ in range(n_inbox)]}
    files.insert(0, ("inbox.json", inbox))
    return files


# --------------------------------------------------------------------------
# Taskwarrior 2.6 import JSON

def tw_project(name):
    """Taskwarrior project for a list name: whitespace removed, '.' -> '_'
    (a '.' would make a sub-project). 'Bench 500' -> 'Bench500'."""
    return re.sub(r"\s+", "", name).replace(".", "_")


def tw_time(s):
    """tick timestamp or YYYY-MM-DD date -> Taskwarrior YYYYMMDDTHHMMSSZ.
    An all-day date becomes midnight UTC of that day (this benchmark runs
    in UTC, so that is also local midnight)."""
    if len(s) == 10:
        return s.replace("-", "") + "T000000Z"
    return s.replace("-", "").replace(":", "")


def map_taskwarrior(name, t):
    o = {"uuid": t["id"], "description": t["title"]}
    o["status"] = "completed" if t["state"] == "done" else "pending"
    o["entry"] = tw_time(t["createdAt"])
    o["modified"] = tw_time(t["modifiedAt"])
    if name is not None:
        o["project"] = tw_project(name)
    if "tags" in t:
        o["tags"] = list(t["tags"])
    if "due" in t:
        o["due"] = tw_time(t["due"])
    if "scheduled" in t:
        o["scheduled"] = tw_time(t["scheduled"])
    if "remind" in t:
        # tick's reminder has no Taskwarrior equivalent ("wait" would hide
        # the task from pending reports); kept as a date UDA so that the
        # data volume matches. run.sh declares the UDA in the taskrc.
        o["remind"] = tw_time(t["remind"])
    if "priority" in t:
        o["priority"] = "H" if t["priority"] == "must" else "L"
    if "energy" in t:
        o["energy"] = t["energy"]  # string UDA
    if t["state"] == "active":
        o["start"] = tw_time(t["modifiedAt"])
    if t["state"] == "done":
        o["end"] = tw_time(t["completedAt"])
    if "notes" in t:
        o["annotations"] = [{"entry": tw_time(t["createdAt"]),
                             "description": t["notes"].replace("\n", " ")}]
    if "x-estimate" in t:
        o["estimate"] = t["x-estimate"]  # numeric UDA
    return o


def in_today(t):
    """Whether tick's `today` view (TICK_NOW = BASE + 12 h, UTC) lists t."""
    day = BASE_DATE.isoformat()
    if t["state"] == "done":
        return t.get("completedAt", "")[:10] == day
    if t["state"] == "active":
        return True
    if t.get("remind", "")[:10] == day:
        return True
    for k in ("due", "scheduled"):
        if k in t and t[k][:10] <= day:
            return True
    return False


# --------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", type=int, required=True)
    ap.add_argument("--lists", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--taskwarrior", metavar="FILE")
    ap.add_argument("--meta", metavar="FILE")
    ap.add_argument("--profile", choices=["history", "uniform", "heavy"], default="history",
                    help="history (default): past-due tasks mostly done, as in a store used for years; "
                         "uniform: 25%% done whatever the date (worst case for date views); "
                         "heavy: small vocabulary (the search word is in ~16%% of the titles) and "
                         "a backlog of overdue open tasks (today lists ~5%% of the store)")
    a = ap.parse_args(argv)

    files = build(a.tasks, a.lists, a.seed, a.profile)
    os.makedirs(os.path.join(a.out, "lists"), exist_ok=True)
    for rel, doc in files:
        with open(os.path.join(a.out, rel), "w", encoding="utf-8",
                  newline="\n") as f:
            f.write(canonical_json(doc))

    if a.taskwarrior:
        with open(a.taskwarrior, "w", encoding="utf-8", newline="\n") as f:
            f.write("[\n")
            first = True
            for rel, doc in files:
                name = doc.get("name") if rel != "inbox.json" else None
                for t in doc["tasks"]:
                    if not first:
                        f.write(",\n")
                    first = False
                    f.write(json.dumps(map_taskwarrior(name, t),
                                       ensure_ascii=False,
                                       separators=(",", ":")))
            f.write("\n]\n")

    if a.meta:
        lists = [{"name": d["name"], "file": rel, "project": tw_project(d["name"]),
                  "tasks": len(d["tasks"]),
                  "pending": sum(t["state"] != "done" for t in d["tasks"])}
                 for rel, d in files if rel != "inbox.json"]
        bench = next(l for l in lists if l["name"] == BENCH_LIST)
        projects = [l["project"] for l in lists]
        # A typical list for `list LIST`: ASCII name, project not a prefix of
        # another project (Taskwarrior's project:X matches X* too).
        target = next(l for l in lists if l["name"] != BENCH_LIST
                      and l["name"].isascii()
                      and sum(p.startswith(l["project"]) for p in projects) == 1)
        bench_doc = next(d for rel, d in files if d.get("name") == BENCH_LIST)
        meta = {
            "tasks": a.tasks, "lists": a.lists, "seed": a.seed,
            "inbox": len(files[0][1]["tasks"]),
            "profile": a.profile,
            "search_word": SEARCH_WORD,
            "search_hits_title_or_notes": sum(
                SEARCH_WORD in (t["title"] + " " + t.get("notes", "")).lower()
                for _, d in files for t in d["tasks"]),
            # What tick's today view selects (open or active and overdue, due
            # or scheduled by the base date, reminding that day, or active;
            # done that day), computed here as a cross-check of the profile.
            "today_expected": sum(in_today(t) for _, d in files for t in d["tasks"]),
            "list_target": target,
            "bench_list": bench,
            "bench_pending_ids": [t["id"] for t in bench_doc["tasks"]
                                  if t["state"] != "done"],
            "all_lists": lists,
        }
        with open(a.meta, "w", encoding="utf-8") as f:
            json.dump(meta, f, ensure_ascii=False, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
