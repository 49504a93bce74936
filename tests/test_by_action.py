"""``by_action`` groups commands by action in their order, whatever the order of the
actions (a legal list gives each ability's commands together; a script may not)."""

from __future__ import annotations

from nightfall.engine.commands import Command, by_action


def test_groups_in_order_also_when_actions_interleave() -> None:
    a1, b1, a2, b2, c1 = (Command("a", "P", "x"), Command("b", "P", "x"), Command("a", "P", "y"),
                          Command("b", "P", "y"), Command("c", "P"))
    assert by_action([a1, a2, b1, b2, c1]) == {"a": [a1, a2], "b": [b1, b2], "c": [c1]}
    assert by_action([a1, b1, a2, b2, c1]) == {"a": [a1, a2], "b": [b1, b2], "c": [c1]}
    assert list(by_action([b1, a1, b2])) == ["b", "a"]
    assert by_action([]) == {}
