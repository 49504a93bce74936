#!/usr/bin/env bash
# Optional: a compiled build of the engine core and the rule sets (mypyc), for long
# simulations. Copies src/nightfall to build/compiled/nightfall (or the directory given)
# and compiles engine/, rulesets/, the rule-file interpreter (rulefile/ but its loader,
# models and checker), the simulator's game loop (sim/play.py) and its bots (sim/bots
# but base.py), and the vote counter's readers (forum/: detection, the phpBB reader, the
# DOM vote scan, dates, content, names, votes, counting) there in place; nothing in src/
# changes, and neither ./test nor ./run use it. Use it by putting the directory first on
# the path:
#
#   scripts/build_compiled.sh
#   PYTHONPATH=build/compiled .venv/bin/nightfall simulate ...
#   PYTHONPATH=build/compiled .venv/bin/nightfall votecount ...
#   .venv/bin/python benchmarks/sim_bench.py --compiled
#   .venv/bin/python benchmarks/votecount_bench.py --compiled
#
# Why a copy: the compiled modules must match their sources exactly (rebuild after every
# change; the benchmark refuses a stale build). The events are compiled too (their stored
# names come from a registry by class, not from a ClassVar, which mypyc would make a field).
# Needs a C compiler and the Python headers; takes 1-3 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/compiled}"
mypyc="$(realpath "${MYPYC:-.venv/bin/mypyc}")"
rm -rf "$out"
mkdir -p "$out"
cp -r src/nightfall "$out/"
find "$out" -name __pycache__ -prune -exec rm -rf {} +
cd "$out"
# the project's mypy settings (pyproject.toml) for the copy; mypyc type-checks first
cat > mypyc.ini <<'EOF'
[mypy]
python_version = 3.11
strict = True
untyped_calls_exclude = distributed
[mypy-babel.*,pymorphy3.*,icu,icu.*]
ignore_missing_imports = True
EOF
# and what a simulated game runs besides: the game master's loop and the bots (base.py
# stays interpreted, so that a test's own bot can subclass Bot), and the rule-file
# interpreter that plays a game of a data rule set (its rule set class subclasses the
# engine's, so it must be compiled with it; the loader, the pydantic models and the
# checker's own modules stay interpreted: they run once per file, not per move)
rulefile_modules=(builtins effects expr hooks kept ruleset view)
# the vote counter's readers (issue 19: a count of 10,000 posts against its parse). Not
# compiled: model.py and lazy.py (LazyPost sets Post's slots through their descriptors),
# limits.py (a dataclass exception, which mypyc cannot make), the other formats' readers
# and the fetcher (not in the hot path)
forum_modules=(content count dates detect dom_scan html_tree names parsing phpbb votes)
modules=$( (find nightfall/engine nightfall/rulesets -name '*.py' ! -name '__init__.py'
            for m in "${rulefile_modules[@]}"; do echo "nightfall/rulefile/$m.py"; done
            for m in "${forum_modules[@]}"; do echo "nightfall/forum/$m.py"; done
            echo nightfall/sim/play.py
            find nightfall/sim/bots -name '*.py' ! -name '__init__.py' ! -name base.py) | sort)
# shellcheck disable=SC2086  # one argument per module
"$mypyc" --config-file mypyc.ini $modules >mypyc.log 2>&1 || { cat mypyc.log >&2; exit 1; }
rm -rf build mypyc.ini
echo "compiled $(echo "$modules" | wc -l) modules into $out (log: $out/mypyc.log)"
