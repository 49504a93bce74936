"""The simulation report speaks the reader's language (issue 18): roles by their names
(the id beside it, as setup files take it), and the rejected bot commands with their
reasons counted, not only "127 bot commands rejected"."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console

from nightfall.engine import Command
from nightfall.sim.bots import Bot, RulesInfo, make_bot
from nightfall.sim.play import OTHER_PLAYER, play_game
from nightfall.sim.report import build_report, print_report
from nightfall.sim.runner import SetupRun
from nightfall.sim.setup import preset_setup
from nightfall.sim.tally import Tally


class Clumsy(Bot):
    """A heuristic bot that first tries a move for nobody and one for somebody else."""

    def __init__(self, name: str, rules: RulesInfo, rng: random.Random) -> None:
        super().__init__(name, rules, rng)
        self.inner = make_bot("heuristic", name, rules, rng)
        self.wants_view = self.inner.wants_view

    def act(self, view: Mapping[str, Any], legal: Sequence[Command]) -> list[Command]:
        return [Command(legal[0].action, by=self.name, target="Nobody-at-all"),
                Command(legal[0].action, by="Somebody-else", target=self.name),
                *self.inner.act(view, legal)]


def clumsy(kind: str, name: str, rules: RulesInfo, rng: random.Random) -> Bot:
    return Clumsy(name, rules, rng)


def _report(locale: str) -> tuple[str, dict[str, Any]]:
    setup = preset_setup("changelings", "village-8")
    tally = Tally()
    for index in range(3):
        tally.add(play_game(setup, 100 + index, index=index, bot_factory=clumsy))
    report = build_report([SetupRun(setup, tally, {"*": "heuristic"}, 1)], games=3, seed=1,
                          bots={"*": "heuristic"})
    console = Console(record=True, width=250, color_system=None)
    print_report(report, console, locale)
    return console.export_text(), report


def test_the_report_counts_why_bot_commands_were_rejected() -> None:
    text, report = _report("en")
    play = report["setups"][0]["play"]
    reasons = play["rejections"]
    assert sum(reasons.values()) == play["rejected"] > 0
    assert reasons[OTHER_PLAYER] > 0 and reasons["There is no player called {name}."] > 0
    assert "Why bot commands were rejected:" in text
    assert f"{reasons[OTHER_PLAYER]}× A bot may act only for its own player." in text
    assert "× There is no player called …." in text


def test_the_report_names_roles_in_its_language() -> None:
    german, _ = _report("de")
    assert "Königin (queen)" in german and "Forscher (researcher)" in german
    assert "Warum Bot-Befehle abgelehnt wurden:" in german
    assert "× Es gibt keinen Spieler namens …." in german
    russian, _ = _report("ru")
    assert "(queen)" in russian and "Почему команды ботов отклонены:" in russian
