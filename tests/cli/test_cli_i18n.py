"""``nightfall game …`` speaks the game's language: a German Changelings game and a Russian
Island game are walked through every subcommand, and each command's own words (labels,
confirmations, table headings, errors, the word "step") come out in German or Russian,
with no English left beside the engine's texts.

The commands run in this process through Typer's test runner (the same code a GM runs,
without a new Python for each of the ~45 commands); ``test_game_cli.py`` runs them as
real subprocesses. "No English left" is checked against the CLI's own msgids: every
word of an English msgid of ``cli/game.py`` that its translation does not keep.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from babel.messages.extract import extract_from_file
from typer.testing import CliRunner

import nightfall.cli.game
from nightfall.cli.app import app
from nightfall.i18n import gettext_for

T0 = datetime(2024, 3, 1, 18, 0, tzinfo=ZoneInfo("Europe/Berlin"))
CHANGELINGS = {"Ann": "changeling", "Bob": "queen", "Cid": "researcher", "Dan": "shield",
               "Eve": "pinkie_sense", "Fay": "pony", "Gus": "pony", "Hal": "pony"}
ISLAND = {"Ann": "werewolf", "Bob": "seer", "Cid": "nurse", "Dan": "passenger",
          "Eve": "passenger", "Fay": "passenger", "Gus": "passenger"}


class Walk:
    """One game in a SQLite file; every command's exit code and output (stdout and stderr)
    kept under a name, for the assertions."""

    def __init__(self, db: Path, locale: str, ruleset: str, roles: dict[str, str]) -> None:
        self.db, self.locale, self.now = db, locale, T0
        self.outputs: dict[str, tuple[int, str]] = {}
        options = ["--option", "random_events=false"] if ruleset == "island" else []
        created = self.run("new", "new", "--ruleset", ruleset, "--seed", "3",
                           "--locale", locale, *options)
        self.gid = created.splitlines()[0].rsplit(" ", 1)[1]  # "Spiel: ID" / "игра: ID"
        self.roles = roles

    def run(self, name: str, *args: str, code: int = 0) -> str:
        result = CliRunner().invoke(
            app, ["game", *args, "--db", f"sqlite:///{self.db}"],
            env={"COLUMNS": "200", "NIGHTFALL_NOW": self.now.isoformat(),
                 "NIGHTFALL_DATABASE_URL": None})
        assert result.exit_code == code, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), \
            (args, result.exception)
        self.outputs[name] = (result.exit_code, result.output)
        return result.output


def _walk(db: Path, locale: str, ruleset: str, roles: dict[str, str]) -> Walk:
    """Every subcommand once (and its common mistakes), as docs/gm-guide.md shows them."""
    w = Walk(db, locale, ruleset, roles)
    gid, first = w.gid, next(iter(roles))
    w.run("list", "list", "--locale", locale)
    for name in roles:
        w.run("signup", "signup", gid, name)
    w.run("signup-zone", "signup", gid, "Zed", "--timezone", "Mars/Olympus", code=2)
    w.run("signup-zed", "signup", gid, "Zed")
    w.run("withdraw", "withdraw", gid, "Zed")
    w.run("setup-two", "setup", gid, "--preset", "x", "--roles", "pony", code=2)
    w.run("setup", "setup", gid, "--assign", ",".join(f"{p}={r}" for p, r in roles.items()))
    w.run("revoke", "token", "revoke", gid, first)
    w.run("revoke-again", "token", "revoke", gid, first)
    w.run("reissue", "token", "reissue", gid, first)
    w.run("reissue-gm", "token", "reissue", gid, "--gm")
    w.run("reissue-both", "token", "reissue", gid, first, "--gm", code=2)
    w.run("start", "start", gid)
    w.run("status", "status", gid, "--gm")
    w.now += timedelta(minutes=5)
    day_one = "elect" if ruleset == "changelings" else "vote"
    w.run("submit", "submit", gid, day_one, "--by", "Bob", "--target", "Cid")
    w.run("submit-unknown", "submit", gid, "fly", "--by", "Bob", code=1)
    w.run("submit-gm-act", "submit", gid, "extend", "--by", "Bob", code=2)
    w.run("act-unknown", "act", gid, "nope", code=2)
    w.run("extend", "extend", gid, "30")
    w.run("shorten", "shorten", gid, "10")
    w.run("tick-nothing", "tick", gid)
    w.run("close", "close", gid)
    w.run("undo", "undo", gid)
    w.run("close-again", "close", gid)
    w.run("skip", "skip", gid)
    w.run("tick-all-nothing", "tick", "--all", "--locale", locale)
    w.now += timedelta(days=1, hours=2)
    w.run("tick-all", "tick", "--all", "--locale", locale)
    w.run("trace", "trace", gid)
    w.run("trace-unknown", "trace", gid, "--phase", "night 9", code=2)
    w.run("log", "log", gid)
    w.run("options", "new", "--ruleset", ruleset, "--locale", locale, "--option", "nope=1",
          code=2)
    for name, role in roles.items():  # the GM removes the evil side: the game ends
        if role in ("changeling", "queen", "werewolf"):
            w.run(f"modkill-{name}", "modkill", gid, name)
    w.run("export", "export", gid, "--output", str(db.parent / "export.json"))
    w.run("replay", "replay", gid)
    w.run("unknown-game", "status", "nosuchgame", "--locale", locale, code=2)
    return w


@pytest.fixture(scope="module")
def german(tmp_path_factory: pytest.TempPathFactory) -> Walk:
    return _walk(tmp_path_factory.mktemp("de") / "de.db", "de", "changelings", CHANGELINGS)


@pytest.fixture(scope="module")
def russian(tmp_path_factory: pytest.TempPathFactory) -> Walk:
    return _walk(tmp_path_factory.mktemp("ru") / "ru.db", "ru", "island", ISLAND)


def _has(walk: Walk, name: str, *words: str) -> None:
    output = walk.outputs[name][1]
    for word in words:
        assert word in output, (name, word, output)


def test_a_german_game_speaks_german(german: Walk) -> None:
    g = german
    _has(g, "new", f"Spiel: {g.gid}", "Spielleiter-Token: ", "Sprache de",
         "halte das Token geheim")
    _has(g, "list", "Regelwerk", "Titel", "Frist", "Ereignisse", "Anmeldephase")
    _has(g, "signup", "angemeldet: Hal", "Spieler-Token: ")
    _has(g, "signup-zone", "Fehler: --timezone: unbekannte Zeitzone 'Mars/Olympus'")
    _has(g, "withdraw", "abgemeldet: Zed")
    _has(g, "setup-two", "Fehler: gib nur eines von --preset, --roles, --assign an")
    _has(g, "setup", "Rollen (geheim)", "Spieler", "Rolle", "Königin (queen)",
         f"als Nächstes: `nightfall game start {g.gid}`")
    _has(g, "revoke", "gesperrt: der private Link von Ann funktioniert nicht mehr")
    _has(g, "revoke-again", "Ann hatte keinen gültigen Link (nichts zu sperren)")
    _has(g, "reissue", "Spieler-Token (Ann): ", "wird nur jetzt angezeigt")
    _has(g, "reissue-gm", "Spielleiter-Token: ")
    _has(g, "reissue-both", "Fehler: nenne einen Spieler oder gib --gm an")
    _has(g, "start", "jetzt: Tag 1 (Frist Sa. 2024-03-02 19:30 CET)")
    _has(g, "status", "Phase day 1 (Tag 1), Frist Sa. 2024-03-02 19:30 CET",
         "Spieler (geheim)", "im Spiel", "Zustände", "Königin", "ausstehend: —")
    _has(g, "submit", "angenommen: Bob elect Cid")
    _has(g, "submit-unknown", "abgelehnt: ")
    _has(g, "submit-gm-act", "Fehler: 'extend' ist eine Spielleiter-Aktion")
    _has(g, "act-unknown", "Fehler: changelings hat keine Spielleiter-Aktion 'nope'")
    _has(g, "extend", "Frist: Sa. 2024-03-02 20:00 CET")
    _has(g, "shorten", "Frist: Sa. 2024-03-02 19:50 CET")
    _has(g, "tick-nothing", "nichts fällig (Frist Sa. 2024-03-02 19:50 CET)")
    _has(g, "close", "beendet: Tag 1", "jetzt: Nacht 1, Abschnitt 1 (Frist Fr.")
    _has(g, "undo", "zurückgesetzt auf die Zeit vor dem Ende von Tag 1",
         # the old deadline is still ahead: the reopened stage keeps it (issue 18)
         "der Abschnitt ist wieder offen, bis Sa. 2024-03-02 19:50 CET")
    _has(g, "skip", "übersprungen: Nacht 1, Abschnitt 1")
    _has(g, "tick-all-nothing", "keine Frist ist abgelaufen")
    _has(g, "tick-all", f"{g.gid}: ", "Ereignis(se)")
    _has(g, "trace", "Schritt 1  ")
    _has(g, "trace-unknown", "Fehler: Keine Auflösung von night 9")
    _has(g, "log", " Schritt ", "Zeile(n)")
    _has(g, "options", "Fehler: unbekannte Option 'nope'; bekannt: ")
    _has(g, "modkill-Ann", "ausgeschieden: Ann (vom Spielleiter entfernt)")
    _has(g, "modkill-Bob", "Spielende: Sieger – die Ponys")
    _has(g, "export", "Ereignisse nach ", "geschrieben")
    _has(g, "replay", "identisch: ")
    _has(g, "unknown-game", "Fehler: in sqlite:///", "gibt es kein Spiel nosuchgame")


def test_a_russian_game_speaks_russian(russian: Walk) -> None:
    r = russian
    _has(r, "new", f"игра: {r.gid}", "токен ведущего: ", "язык ru",
         "держи токен в секрете")
    _has(r, "list", "правила", "название", "срок", "события", "запись")
    _has(r, "signup", "записан: Gus", "токен игрока: ")
    _has(r, "signup-zone", "ошибка: --timezone: неизвестный часовой пояс 'Mars/Olympus'")
    _has(r, "withdraw", "запись отозвана: Zed")
    _has(r, "setup-two", "ошибка: укажи только одно из: --preset, --roles, --assign")
    _has(r, "setup", "роли (секретно)", "игрок", "роль", "Оборотень (werewolf)",
         f"дальше: `nightfall game start {r.gid}`")
    _has(r, "revoke", "отозвано: личная ссылка игрока Ann больше не работает")
    _has(r, "revoke-again", "у игрока Ann не было рабочей ссылки")
    _has(r, "reissue", "токен игрока (Ann): ", "показан только сейчас")
    _has(r, "reissue-gm", "токен ведущего: ")
    _has(r, "reissue-both", "ошибка: укажи игрока или --gm")
    _has(r, "start", "сейчас: день 1, этап 1 (срок сб 2024-03-02 13:00 MSK)")
    _has(r, "status", "фаза day 1/1 (день 1, этап 1), срок сб", "игроки (секретно)",
         "в игре", "статусы", "Оборотень", "ожидается: —")
    _has(r, "submit", "принято: Bob vote Cid")
    _has(r, "submit-unknown", "отклонено: ")
    _has(r, "submit-gm-act", "ошибка: 'extend' — действие ведущего")
    _has(r, "act-unknown",
         "ошибка: в правилах island нет действия ведущего 'nope'; известны: ")
    _has(r, "extend", "срок: сб 2024-03-02 13:30 MSK")
    _has(r, "shorten", "срок: сб 2024-03-02 13:20 MSK")
    _has(r, "tick-nothing", "ничего не истекло (срок сб 2024-03-02 13:20 MSK)")
    _has(r, "close", "завершено: день 1, этап 1", "сейчас: день 1, этап 2 (срок пт")
    _has(r, "undo", "откат к моменту до завершения этапа «день 1, этап 1»",
         "этап снова открыт до сб 2024-03-02 13:20 MSK")
    _has(r, "skip", "пропущено: день 1, этап 2")
    _has(r, "tick-all-nothing", "ни один срок не истёк")
    _has(r, "tick-all", f"{r.gid}: событий: ")
    _has(r, "trace", "шаг 1  ")
    _has(r, "trace-unknown", "ошибка: Нет итогов для night 9")
    _has(r, "log", " шаг ", "строк: ")
    _has(r, "options", "ошибка: неизвестная опция 'nope'; известны: ")
    _has(r, "modkill-Ann", "выбыл: Ann (удалён(а) ведущим)",
         "игра окончена: победа — мирные жители")
    _has(r, "export", "export.json записано событий: ")
    _has(r, "replay", "совпадает: ")
    _has(r, "unknown-game", "ошибка: в sqlite:///", "нет игры nosuchgame")


def _english_words(locale: str) -> Iterator[tuple[str, re.Pattern[str]]]:
    """The English of every msgid of ``cli/game.py`` that its ``locale`` translation does
    not keep: the text between placeholders, less commands in backticks, options and
    names in capitals, which stay the same in every language."""
    gettext = gettext_for(locale)
    path = Path(nightfall.cli.game.__file__)
    for _line, msgid, _comments, _context in extract_from_file(
            "python", str(path), keywords={"N_": None}):
        assert isinstance(msgid, str)
        translated = gettext(msgid)
        plain = re.sub(r"`[^`]*`|--[\w-]+|\b[A-Z_]{2,}\b|\{\w*\}", "|", msgid)
        for fragment in plain.split("|"):
            words = fragment.strip(" :;,.()—…=+-")
            if len(re.findall(r"[A-Za-z]", words)) >= 3 and words not in translated:
                # not inside an id: ``player=Ann``, the audience ``player:Ann``, ``day_deadline``
                yield msgid, re.compile(r"(?<![\w=])" + re.escape(words) + r"(?![\w=]|:\S)")


@pytest.mark.parametrize("language", ["german", "russian"])
def test_no_english_chrome_is_left(language: str, request: pytest.FixtureRequest) -> None:
    walk: Walk = request.getfixturevalue(language)
    words = list(_english_words(walk.locale))
    assert len(words) > 60  # the check has something to check
    for name, (_code, output) in walk.outputs.items():
        for msgid, pattern in words:
            found = pattern.search(output)
            assert found is None, f"{name}: English {found.group()!r} ({msgid!r}) in\n{output}"
