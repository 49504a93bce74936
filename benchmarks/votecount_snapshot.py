"""Snapshot of everything the vote counter reads and reports, to compare two versions of
its sources byte for byte (a speed change must not change a result).

    PYTHONPATH=src .venv/bin/python benchmarks/votecount_snapshot.py /tmp/before.txt
    PYTHONPATH=src .venv/bin/python benchmarks/votecount_snapshot.py /tmp/after.txt
    cmp /tmp/before.txt /tmp/after.txt

Inputs: every fixture file of ``tests/forum/fixtures``; the threads of
``tests/forum/threadkit.py`` in each forum's markup (phpBB, vBulletin 4 and 3, XenForo 2
and 1, Discourse); a 3,000-post thread of ``votecount_bench.py``. For each page: its
format, issues and refusal, and every post's fields with its whole content tree (the
dataclasses' ``repr``); each post's vote marks under both rule sets (Changelings' from
its rule file, Island's plugin rules); for each input the
counts under both rule sets for three rosters, as JSON and as the BBCode post in German,
English and Russian.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "forum"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import threadkit  # noqa: E402
import votecount_bench  # noqa: E402

from nightfall.forum import (  # noqa: E402
    ISLAND,
    Page,
    Post,
    count_votes,
    read_file,
    read_page,
    render_bbcode,
)
from nightfall.forum.votes import vote_marks  # noqa: E402

CHANGELINGS = votecount_bench.CHANGELINGS  # the rule file's forum_votes: (C3)

BERLIN = ZoneInfo("Europe/Berlin")
MOSCOW = ZoneInfo("Europe/Moscow")


def _inputs() -> Iterable[tuple[str, list[Page]]]:
    for path in sorted((ROOT / "tests" / "forum" / "fixtures").iterdir()):
        if path.suffix in (".html", ".jsonl", ".bbcode", ".json") and ".expected" not in path.name:
            yield path.name, [read_file(path, BERLIN)]
    players = ["Ann", "Bob", "Dan", "Eve", "Zoë", "Jörg"]
    votes = [(players[i % 6], players[(i * 5 + 1) % 6]) for i in range(14)]
    posts = threadkit.day_thread(datetime(2012, 12, 23, 20, 0, tzinfo=BERLIN), players,
                                 votes, extra=5)
    posts = threadkit.with_body(posts, 4, "Edited: " + threadkit.red("Eve") + " "
                                + threadkit.bold("Bob"),
                                edited=datetime(2012, 12, 23, 21, 0, tzinfo=BERLIN))
    posts = threadkit.with_body(posts, 6, threadkit.quote(
        "Ann", threadkit.quote("Bob", threadkit.red("Dan")) + " and " + threadkit.red("Zoë"))
        + " vote: Jörg")
    builders = {"phpbb": threadkit.phpbb_pages, "vb4": threadkit.vb4_pages,
                "vb3": threadkit.vb3_pages, "xf2": threadkit.xf2_pages,
                "xf1": threadkit.xf1_pages}
    for name, build in builders.items():
        pages = build(posts)
        yield f"threadkit-{name}", [read_page(text, address, BERLIN)
                                    for address, text in sorted(pages.items())]
    topic, _ = threadkit.discourse_pages(posts, first=len(posts))
    yield "threadkit-discourse", [read_page(text, address, BERLIN)
                                  for address, text in topic.items()]
    yield "bench-3000", [read_page(page, f"page{n}.html", BERLIN)
                         for n, page in enumerate(votecount_bench.generate(3000))]


def _post(post: Post) -> str:
    return repr(post)


def _rosters(posts: list[Post]) -> list[list[str]]:
    authors = sorted({p.author for p in posts})
    return [authors, authors[: max(1, len(authors) // 2)],
            [*votecount_bench.PLAYERS, "Ann", "Bob", "Dan"]]


def snapshot(out: list[str]) -> None:
    for name, pages in _inputs():
        out.append(f"== {name}")
        posts: list[Post] = []
        for page in pages:
            out.append(f"page {page.file} {page.format} refused={page.refused!r}")
            out.extend(f"  issue {issue}" for issue in page.issues)
            for post in page.posts:
                out.append("  " + _post(post))
                for rules in (CHANGELINGS, ISLAND):
                    out.append(f"    {rules.name} {vote_marks(post, rules)!r}")
            posts.extend(page.posts)
        if not posts:
            continue
        times = sorted(p.time for p in posts)
        windows = [(None, None), (times[len(times) // 3], times[-1] - timedelta(minutes=1))]
        for roster in _rosters(posts):
            for rules, tz in ((CHANGELINGS, BERLIN), (ISLAND, MOSCOW)):
                for since, deadline in windows:
                    count = count_votes(posts, roster, rules, since=since, deadline=deadline)
                    out.append(f"count {rules.name} {roster} {since} {deadline}")
                    out.append(json.dumps(count.to_json(), ensure_ascii=False, sort_keys=True))
                    for locale in ("de", "en", "ru"):
                        out.append(render_bbcode(count, tz, locale))


def main() -> None:
    out: list[str] = []
    snapshot(out)
    Path(sys.argv[1]).write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"{len(out)} lines written to {sys.argv[1]}")


if __name__ == "__main__":
    main()
