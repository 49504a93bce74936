"""``nightfall votecount`` speaks the thread's language: the post a GM pastes into a German
(Changelings) or Russian (Island of Fear) thread, and the command's own messages.

The language is ``--locale``; else, with ``--game``, the game's; else the rule set's own.
The JSON stays the contract, the same in every language.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from forumkit import FIXTURES
from typer.testing import CliRunner

from nightfall.cli.app import app
from nightfall.service import GameService

PHPBB = FIXTURES / "phpbb3_day2.html"
PHPBB_ARGS = ["--players", "Anna Bell,Bob,Dan_the_Man,Dana,Jörg,Zoë K",
              "--since", "2012-12-23 20:00", "--deadline", "2012-12-24 19:30"]
DAY4 = FIXTURES / "day4.bbcode"
ISLAND = FIXTURES / "island_day3.bbcode"


def _fixture_args(page: Path) -> list[str]:
    expected = FIXTURES / f"{page.stem}.expected.json"
    return [str(page), *json.loads(expected.read_text(encoding="utf-8"))["args"]]


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["votecount", *args])
    return result.exit_code, result.stdout, result.stderr


def _words(text: str) -> set[str]:
    return set(re.findall(r"[^\W\d_]+", text))


def _english_words_left(args: list[str], post: str, *kept: str) -> set[str]:
    """The words of the English post that are the post's own (not a name, post id or quoted
    text from the input, nor a ``kept`` text such as the zone), found in ``post``."""
    code, english, _ = _run(*args, "--locale", "en")
    _, as_json, _ = _run(*args, "--json")
    assert code == 0
    count = json.loads(as_json)
    names = [*count["votes"], *count["votes"].values(), *count["not_voting"]]
    names += [item[key] for item in count["invalid"] for key in ("post", "author")]
    names += [item[key] for item in count["unresolved"] for key in ("post", "author", "text")]
    values = [arg for arg in args[1:] if not arg.startswith("--")]  # not the option names
    from_input = _words(" ".join((*names, *values, *kept))) | {"b"}
    own = _words(english) - from_input
    assert len(own) >= 12 and "votes" in own, own  # the post's words: the check can fail
    return own & _words(post)


def test_a_german_post_of_a_phpbb_thread() -> None:
    code, post, _ = _run(str(PHPBB), *PHPBB_ARGS)  # Changelings: German by default
    assert code == 0
    lines = post.splitlines()
    assert lines[0] == ("[b]Stimmenauszählung[/b] — Changelings, Stimmen vom 23.12.2012 20:00 "
                        "bis 24.12.2012 19:30 (Europe/Berlin)")
    assert "[b]Bob[/b] (3): Anna Bell, Dana, Zoë K" in lines
    assert "[b]Nicht abgestimmt[/b] (1): Jörg" in lines
    assert "[b]Ungültige Stimmen[/b] (8)" in lines
    for line in (
        'Jörg "Dana" (Beitrag p4999, 23.12.2012 19:55): vor Beginn der Abstimmung',
        'Spielleiter "Bob" (Beitrag p5001, 23.12.2012 20:00): kein Mitspieler',
        'Bob "Bob" (Beitrag p5003, 23.12.2012 22:02): zitiert, nicht die eigene Stimme des '
        'Autors',
        'Jörg "Anna" (Beitrag p5005, 24.12.2012 11:00): Beitrag bearbeitet',
        'Anna Bell "Da" (Beitrag p5007, 24.12.2012 13:00): mehrdeutiger Name',
        'Bob "Jorg" (Beitrag p5008, 24.12.2012 14:00): unbekannter Name',
        'Jörg "Bob" (Beitrag p5010, 24.12.2012 19:31): nach Fristende',
        "[b]Zu prüfende Namen[/b]",
        'Anna Bell (Beitrag p5007): "Da" — meinst du Dan_the_Man oder Dana?',
    ):
        assert line in lines, line
    assert not _english_words_left([str(PHPBB), *PHPBB_ARGS], post, "Changelings",
                                   "Europe/Berlin")


def test_a_german_post_names_the_game_facts_reasons() -> None:
    args = _fixture_args(DAY4)
    code, post, _ = _run(*args)
    assert code == 0
    assert post.startswith("[b]Stimmenauszählung[/b] — Changelings, Stimmen bis "
                           "24.12.2012 19:30 (Europe/Berlin)\n")
    for reason in ("Stimme für die eigene Flamme", "stimmlos", "ausgeschiedener Spieler"):
        assert f"): {reason}\n" in post, reason
    assert not _english_words_left(args, post, "Changelings", "Europe/Berlin")


def test_a_russian_post_of_an_island_thread() -> None:
    args = _fixture_args(ISLAND)  # Island of Fear: Russian by default
    code, post, _ = _run(*args)
    assert code == 0
    lines = post.splitlines()
    assert lines[0] == ("[b]Подсчёт голосов[/b] — Остров страха, голоса до 24.12.2012 21:00 "
                        "(Europe/Moscow)")
    assert "* нет действительного голоса: считается голосом за себя" in lines
    assert "[b]Не проголосовали[/b] (1): Глеб" in lines
    assert "[b]Недействительные голоса[/b] (3)" in lines
    for line in (
        'Глеб "Борис" (сообщение 304, 24.12.2012 13:00): цитата, а не собственный голос автора',
        'Вера "Аня" (сообщение 305, 24.12.2012 14:00): сообщение отредактировано',
        'Борис "Аня" (сообщение 306, 24.12.2012 21:01): после окончания срока',
    ):
        assert line in lines, line
    assert not _english_words_left(args, post, "Europe/Moscow")
    latin = {word for word in _words(post) if re.fullmatch(r"[A-Za-z]+", word)}
    assert latin == {"b", "Europe", "Moscow"}  # BBCode and the zone: no English word left


@pytest.mark.parametrize(("page", "locale", "title"), [
    (DAY4, "en", "[b]Vote count[/b] — Changelings,"),
    (DAY4, "ru", "[b]Подсчёт голосов[/b] — Чейнджлинги,"),
    (ISLAND, "de", "[b]Stimmenauszählung[/b] — Insel der Angst,"),
    (ISLAND, "en", "[b]Vote count[/b] — Island of Fear,"),
])
def test_locale_overrides_the_rule_sets_language(page: Path, locale: str, title: str) -> None:
    code, post, _ = _run(*_fixture_args(page), "--locale", locale)
    assert code == 0 and post.startswith(title)


def test_the_json_is_the_same_in_every_language() -> None:
    outputs = {_run(*_fixture_args(ISLAND), "--json", *extra)[1]
               for extra in ([], ["--locale", "de"], ["--locale", "en"], ["--locale", "ru"])}
    (only,) = outputs
    expected = json.loads((FIXTURES / "island_day3.expected.json").read_text(encoding="utf-8"))
    assert only == json.dumps(expected["count"], ensure_ascii=False) + "\n"


def test_errors_speak_the_rule_sets_language_or_the_locale() -> None:
    code, _, err = _run(str(DAY4), "--players", "Ann", "--submit")
    assert code == 2 and "Fehler: --submit braucht --game" in err
    code, _, err = _run(str(ISLAND), "--ruleset", "island", "--players", " , ")
    assert code == 2 and "ошибка: --players: укажи хотя бы одного игрока" in err
    code, _, err = _run(str(ISLAND), "--ruleset", "island", "--players", "Аня",
                        "--deadline", "soon", "--locale", "de")
    assert code == 2 and "Fehler: --deadline: die Zeitangabe 'soon' ist nicht lesbar" in err
    code, _, err = _run(str(DAY4), "--players", "Ann,Bob", "--alias", "Zed=Zeddy")
    assert code == 2 and "Alias für den unbekannten Spieler 'Zed'" in err
    code, _, err = _run(str(DAY4), "--players", "Ann", "--locale", "fr")
    assert code == 2 and "error: --locale: choose one of de, en, ru" in err


def test_with_a_game_the_games_language(tmp_path: Path) -> None:
    """A Changelings game played in English: the post is English unless --locale says
    otherwise; a game that is not there has no language (English)."""
    url = f"sqlite:///{tmp_path / 'nightfall.db'}"
    service = GameService(url=url)
    created = service.create("changelings", 3, locale="en")
    for name in ("Ann", "Bob", "Cleo", "Dan", "Eve"):
        service.signup(created.id, name)
    page = str(DAY4)
    code, post, _ = _run(page, "--game", created.id, "--db", url)
    assert code == 0
    assert post.startswith("[b]Vote count[/b] — Changelings\n")
    assert "[b]Invalid votes[/b]" in post and "): vote for the lover" not in post
    code, post, _ = _run(page, "--game", created.id, "--db", url, "--locale", "ru")
    assert code == 0 and post.startswith("[b]Подсчёт голосов[/b] — Чейнджлинги\n")
    code, _, err = _run(page, "--game", "nope", "--db", url)
    assert code == 2 and "error: no game 'nope' in this database" in err


def test_the_german_example_of_the_docs_is_the_real_post() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "votecount.md").read_text(encoding="utf-8")
    block = doc.split("German by default:\n\n", 1)[1].split("\n\n\n", 1)[0]
    block = block.split("\n\nUnder Island rules", 1)[0]
    example = "\n".join(line.removeprefix("    ") for line in block.splitlines())
    code, post, _ = _run(str(PHPBB), *PHPBB_ARGS)
    assert code == 0 and post == example + "\n"
