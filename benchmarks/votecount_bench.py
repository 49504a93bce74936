"""Benchmark: count the votes of a generated 10,000-post phpBB thread, next to only parsing
the same pages with the same HTML parser (selectolax/Lexbor), measured in the same run.

    .venv/bin/python benchmarks/votecount_bench.py [--posts 10000] [--runs 5] [--compiled]

The thread is made of 25-post prosilver pages (as a GM would save them) with realistic
content: red votes, quotes (some nested), signatures with red text, edit notices, coloured
user names. "parse only" builds the DOM of every page; "count" is what ``nightfall
votecount`` does: detect the format, read every post into the content tree, find and check
the votes, count them. A third figure, "Lexbor's parse and queries", parses every page
and asks it the two queries a count asks of a phpBB page (the survey and the depth
probe): the part of a count that is Lexbor's C, which bounds what any change to the
readers' Python can reach. Each figure is the median CPU time of several runs, the
jobs taking turns (robust to other load on a shared machine). ``--compiled`` counts with
the readers of the mypyc build of ``scripts/build_compiled.sh`` (``build/compiled``;
refused when its sources differ from ``src``); the parse is Lexbor's either way.
"""

# ruff: noqa: E501  (the page templates are forum markup, kept as the forum writes it)

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser

import nightfall.forum.dom_scan
from nightfall.collector import gc_paused
from nightfall.forum import Post, VoteRules, count_votes, detect, limits, read_page
from nightfall.service.votecount import vote_rules_for
from nightfall.sim.build import compiled_problem

PLAYERS = [f"Player {n:02d}" for n in range(1, 16)] + ["Jörg", "Zoë K", "Dan_the_Man"]
BERLIN = ZoneInfo("Europe/Berlin")
PER_PAGE = 25


def _changelings() -> VoteRules:
    rules = vote_rules_for("changelings")
    assert rules is not None
    return rules


#: what ``nightfall votecount --ruleset changelings`` counts with: the rule file's
#: ``forum_votes:`` (C3)
CHANGELINGS = _changelings()

PAGE_HEAD = """<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" dir="ltr" lang="en-gb" xml:lang="en-gb">
<head><meta http-equiv="content-type" content="text/html; charset=UTF-8" />
<title>Board &bull; Big game</title>
<script type="text/javascript">var on_page = '{page}'; var per_page = '25';</script>
</head><body id="phpbb" class="section-viewtopic ltr"><div id="wrap"><div id="page-body">
<h2><a href="./viewtopic.php?f=1&amp;t=1">Big game</a></h2>
<div class="topic-actions"><div class="pagination">{total} posts &bull; Page <strong>{page}</strong></div></div>
"""
PAGE_FOOT = """<div id="page-footer"><div class="navbar"><ul class="linklist">
<li class="rightside"><a href="./memberlist.php?mode=leaders">The team</a> &bull; All times are UTC + 1 hour </li>
</ul></div></div></div></div></body></html>
"""
POST = """	<div id="p{pid}" class="post bg{bg}">
		<div class="inner"><span class="corners-top"><span></span></span>
		<div class="postbody">
				<ul class="profile-icons"><li class="quote-icon"><a href="./posting.php?mode=quote&amp;f=1&amp;p={pid}" title="Reply with quote"><span>Reply with quote</span></a></li></ul>
			<h3 ><a href="#p{pid}">Re: Big game</a></h3>
			<p class="author"><a href="./viewtopic.php?p={pid}#p{pid}"><img src="./styles/prosilver/imageset/icon_post_target.gif" width="11" height="9" alt="Post" title="Post" /></a>by <strong><a href="./memberlist.php?mode=viewprofile&amp;u={uid}"{style}>{author}</a></strong> &raquo; {when} </p>
			<div class="content">{content}</div>
{notice}{signature}
		</div>
			<dl class="postprofile" id="profile{pid}"><dt><a href="./memberlist.php?mode=viewprofile&amp;u={uid}">{author}</a></dt>
			<dd>Member</dd><dd>&nbsp;</dd><dd><strong>Posts:</strong> {uid}</dd></dl>
		<div class="back2top"><a href="#wrap" class="top" title="Top">Top</a></div>
		<span class="corners-bottom"><span></span></span></div>
	</div>
	<hr class="divider" />
"""
FILLER = [
    "I have been watching the votes all day and something does not add up.",
    "Last night was quiet, too quiet. Whoever was not at home should explain.",
    "Remember what happened on day two: the loudest player was the changeling.",
    "I am a simple pony and I vote with my gut, as always.",
    "Can someone summarise the claims so far? I lost track after page twelve.",
]


def _when(moment: datetime) -> str:
    """phpBB 3.0's default date format: ``Sun May 26, 2019 4:34 pm``."""
    meridiem = "am" if moment.hour < 12 else "pm"
    return f"{moment:%a %b %d, %Y} {moment.hour % 12 or 12}:{moment:%M} {meridiem}"


def generate(posts: int, seed: int = 2012) -> list[str]:
    """The pages of a ``posts``-post thread in phpBB 3.0 prosilver markup."""
    rng = random.Random(seed)
    start = datetime(2012, 12, 1, 20, 0)
    pages: list[str] = []
    body: list[str] = []
    for index in range(posts):
        author = rng.choice(PLAYERS)
        text = rng.choice(FILLER)
        roll = rng.random()
        if roll < 0.35:
            text += f' My vote: <span style="color: #FF0000">{rng.choice(PLAYERS)}</span>.'
        if roll > 0.7:
            inner = f'{rng.choice(FILLER)} <span style="color: #FF0000">{rng.choice(PLAYERS)}</span>'
            if rng.random() < 0.3:
                inner = (f"<blockquote><div><cite>{rng.choice(PLAYERS)} wrote:</cite>"
                         f"{rng.choice(FILLER)}</div></blockquote><br />{inner}")
            text = (f"<blockquote><div><cite>{rng.choice(PLAYERS)} wrote:</cite>{inner}"
                    f"</div></blockquote><br />{text}")
        notice = ""
        if rng.random() < 0.08:
            notice = ('\t\t\t\t<div class="notice">Last edited by <a href="./memberlist.php">'
                      f'{author}</a> on Mon Dec 24, 2012 5:35 pm, edited 1 time in total.</div>\n')
        signature = ""
        if rng.random() < 0.4:
            signature = (f'\t\t\t<div id="sig{index}" class="signature"><span style="font-weight: '
                         f'bold">Motto</span><br /><span style="color: #FF4000">{rng.choice(PLAYERS)}'
                         '</span> is my friend</div>\n')
        style = ' style="color: #AA0000;" class="username-coloured"' if author == "Jörg" else ""
        body.append(POST.format(
            pid=100000 + index, bg=1 + index % 2, uid=PLAYERS.index(author) + 2, style=style,
            author=author, when=_when(start + timedelta(minutes=3 * index)), content=text,
            notice=notice, signature=signature,
        ))
        if len(body) == PER_PAGE or index == posts - 1:
            page = len(pages) + 1
            pages.append(PAGE_HEAD.format(page=page, total=posts) + "".join(body) + PAGE_FOOT)
            body = []
    return pages


def parse_only(pages: list[str]) -> int:
    """Build the DOM of every page and nothing else."""
    nodes = 0
    for page in pages:
        tree = LexborHTMLParser(page)
        nodes += tree.root is not None
    return nodes


def count(pages: list[str]) -> int:
    """What ``nightfall votecount`` does with the pages (with the cyclic collector paused
    for the whole read and count, as the command pauses it)."""
    posts: list[Post] = []
    with gc_paused():
        for number, page in enumerate(pages):
            posts.extend(read_page(page, f"page{number}.html", BERLIN).posts)
        result = count_votes(posts, PLAYERS, CHANGELINGS)
    return len(result.votes) + len(result.invalid)


def parse_and_query(pages: list[str]) -> int:
    """Build the DOM of every page and ask it the two queries every count of a phpBB page
    asks (``detect``'s survey of the page, and ``limits.check_tree``'s probe for an
    element 100 levels deep): Lexbor's own work in a count, which no change to the
    readers' Python moves (selectolax's selector engine walks every node of the page for
    each query)."""
    found = 0
    for page in pages:
        tree = LexborHTMLParser(page)
        found += len(tree.css(detect._SURVEY))
        found += tree.css_first(limits._DEEP) is not None
    return found


def median_times(jobs: list[Callable[[list[str]], int]], pages: list[str],
                 runs: int) -> list[float]:
    """The median CPU time of each job, the jobs taking turns run after run: on a machine
    other work shares, a burst of load then hits both sides of the ratio alike, and CPU
    time (``process_time``) does not count the time the process waits for a core."""
    times: list[list[float]] = [[] for _ in jobs]
    for _ in range(runs):
        for job, taken in zip(jobs, times, strict=True):
            started = time.process_time()
            job(pages)
            taken.append(time.process_time() - started)
    return [statistics.median(taken) for taken in times]


ROOT = Path(__file__).resolve().parent.parent
COMPILED = ROOT / "build" / "compiled"


def compiled_build() -> Path:
    """The mypyc build next to the sources, or exit when it is missing or older than the
    sources (its readers would not be the ones measured against)."""
    problem = compiled_problem(ROOT, "forum/dom_scan")
    if problem is not None:
        sys.exit(problem)
    return COMPILED


def build_name() -> str:
    """Which readers this process counts with."""
    compiled = Path(nightfall.forum.dom_scan.__file__ or "").suffix in (".so", ".pyd")
    return "compiled (mypyc)" if compiled else "interpreted"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--compiled", action="store_true",
                        help="count with the mypyc build of scripts/build_compiled.sh")
    args = parser.parse_args()
    if args.compiled:  # again in a new process, the build first on the path
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(compiled_build()), *filter(None, [os.environ.get("PYTHONPATH")])]))
        argv = [a for a in sys.argv if a != "--compiled"]
        os.execve(sys.executable, [sys.executable, *argv], env)
    pages = generate(args.posts)
    size = sum(len(page.encode("utf-8")) for page in pages)
    check = sum(len(read_page(page, "p", BERLIN).posts) for page in pages[:2])
    assert check == min(args.posts, 2 * PER_PAGE), "generated pages must read back"
    parse_time, count_time, lexbor_time = median_times([parse_only, count, parse_and_query],
                                                       pages, args.runs)
    print(f"thread: {args.posts} posts on {len(pages)} phpBB pages, {size / 1e6:.1f} MB; "
          f"readers: {build_name()}")
    print(f"median CPU time of {args.runs} runs each, taking turns:")
    print(f"  parse only (selectolax/Lexbor DOM): {parse_time:8.3f} s")
    print(f"  count (read posts + count votes):   {count_time:8.3f} s")
    print(f"  ratio count / parse:                {count_time / parse_time:8.1f}x")
    print(f"  of which Lexbor's parse and queries: {lexbor_time / parse_time:7.1f}x a parse "
          "(the survey and the depth probe: no change to the readers' Python moves it)")


if __name__ == "__main__":
    main()
