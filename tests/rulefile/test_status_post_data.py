"""The status post from data (``status_post:``, C16.1): the checker refuses a broken one
by key and line. That Changelings' file writes the deleted plugin's post byte for byte, in
every language, is tests/rulefile/test_frozen_plugin.py's (frozen digests)."""

from __future__ import annotations

from pathlib import Path

import pytest

from nightfall.rulefile.load import RuleFileError, parse_source
from nightfall.rulefile.ruleset import compile_rules

CLASSIC_BYTES = (
    Path(__file__).parents[2] / "src" / "nightfall" / "rulefile" / "sets" / "classic.yaml"
).read_bytes()


@pytest.mark.parametrize(
    ("old", "new", "key", "message"),
    [
        (
            b"    - blank: true\n",
            b"    - {blank: true, line: [{text: post_over}]}\n",
            "status_post.show.3",
            "exactly one of rounds, line, players, blank: true (it has line, blank)",
        ),
        (
            b"until: {text: post_until}",
            b"until: {text: post_untill}",
            "status_post.show.0.rounds.until.text",
            "unknown text 'post_untill'",
        ),
        (
            b'        in: "alive()"',
            b'        in: "len(alive())"',
            "status_post.show.5.players.in",
            "list[player] is needed",
        ),
        (
            b'{value: "role(p)", sep: " \xe2\x80\x94 "}',
            b'{value: "rol(p)", sep: " \xe2\x80\x94 "}',
            "status_post.show.8.players.parts.1.value",
            "rol",
        ),
        (
            b"        running: post_running\n",
            b'        running: post_running\n        layout: "{title} {when}"\n',
            "status_post.show.0.rounds.layout",
            "not when",
        ),
        (
            b"text: post_mayor, params: {name: leader}",
            b"text: post_mayor",
            "status_post.show.1.line.0.text",
            "needs the parameters name",
        ),
    ],
)
def test_the_checker_refuses_a_broken_status_post_by_key_and_line(
    old: bytes, new: bytes, key: str, message: str
) -> None:
    assert CLASSIC_BYTES.count(old) == 1, old
    data = CLASSIC_BYTES.replace(old, new)
    with pytest.raises(RuleFileError) as caught:
        compile_rules(parse_source(data, "broken.yaml"), register_terms=False)
    found = [p for p in caught.value.problems if ".".join(map(str, p.path)) == key]
    assert found and message in found[0].message, caught.value.problems
    assert found[0].line is not None and found[0].line > data[: data.index(b"status_post:")].count(
        b"\n"
    )
