"""The vote counter's ratio in instructions, which other load on a shared machine does not
move (CPU time does, by a third): count and parse of a generated thread under valgrind's
callgrind, each minus generating the thread alone.

    PYTHONPATH=src .venv/bin/python benchmarks/votecount_instructions.py [--posts 2000] [--compiled]

Needs ``valgrind`` (Debian's package); about two minutes for 2,000 posts. A speed step is
compared by running this on both versions' sources (``PYTHONPATH``); instructions are not
time (Lexbor's parse does fewer per second than the Python readers), so the CPU-time
ratio of ``votecount_bench.py`` stays the target's measure. ``--compiled``: the readers
of ``scripts/build_compiled.sh``'s mypyc build (refused when stale).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _instructions(job: str, posts: int, env: dict[str, str]) -> int:
    """What callgrind counts for one run of ``job`` ("none", "count" or "parse")."""
    script = ("import sys; sys.path.insert(0, sys.argv[1]); import votecount_bench as vb; "
              "pages = vb.generate(int(sys.argv[3])); "
              "job = {'count': vb.count, 'parse': vb.parse_only}.get(sys.argv[2]); "
              "job and job(pages)")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         "-c", script, str(HERE), job, str(posts)],
        capture_output=True, text=True, check=True, env=env)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count from valgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=2000)
    parser.add_argument("--compiled", action="store_true",
                        help="count with the mypyc build of scripts/build_compiled.sh")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.compiled:
        sys.path.insert(0, str(HERE))
        from votecount_bench import compiled_build

        env["PYTHONPATH"] = os.pathsep.join(
            [str(compiled_build()), *filter(None, [env.get("PYTHONPATH")])])
    base = _instructions("none", args.posts, env)
    count = _instructions("count", args.posts, env) - base
    parse = _instructions("parse", args.posts, env) - base
    readers = "compiled (mypyc)" if args.compiled else "interpreted"
    print(f"thread: {args.posts} posts, {readers} readers; instructions (callgrind), "
          "generating excluded:")
    print(f"  parse only: {parse / 1e6:10.0f}M")
    print(f"  count:      {count / 1e6:10.0f}M")
    print(f"  ratio count / parse: {count / parse:.2f}x")


if __name__ == "__main__":
    main()
