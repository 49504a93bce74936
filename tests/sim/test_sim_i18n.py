"""``nightfall simulate`` and ``nightfall sweep`` speak the user's language (``--locale``):
a bad input exits 2 with the reason in German or Russian, a refused cluster says why in
that language, and the report's headings are translated while the JSON stays the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nightfall.cli.app import app
from nightfall.sim.backends import BackendError, DaskBackend


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "300"})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


@pytest.mark.parametrize(("args", "german", "russian", "english"), [
    (["sweep", "--vary", "changelings=2", "--preset", "village-8"],
     "Fehler: --vary: 'changelings=2': ein Sweep braucht mindestens zwei Werte",
     "ошибка: --vary: 'changelings=2': для перебора нужны хотя бы два значения",
     "a sweep needs at least two values"),
    (["sweep", "--vary", "changelings=two,three", "--preset", "village-8"],
     "'two' ist keine ganze Zahl >= 0", "'two' — не целое число >= 0",
     "is not a whole number"),
    (["simulate", "--preset", "atlantis"],
     "Fehler: changelings hat keine Vorlage 'atlantis' (bekannt: ",
     "ошибка: в правилах changelings нет расстановки 'atlantis' (известны: ",
     "has no preset"),
    (["simulate", "--bots", "changelings=clever"],
     "Fehler: --bots: unbekannter Bot 'clever' (bekannt: random, heuristic)",
     "ошибка: --bots: неизвестный бот 'clever' (известны: random, heuristic)",
     "unknown bot"),
    (["simulate", "--backend", "ray"],
     "Fehler: --backend: wähle eines von: local, dask",
     "ошибка: --backend: выбери одно из: local, dask", "choose one of"),
    (["simulate", "--preset", "village-8", "--preset", "town-12", "--ablate"],
     "--ablate braucht genau eine Aufstellung", "для --ablate нужен ровно один состав",
     "needs exactly one setup"),
], ids=["vary-one-value", "vary-not-a-number", "unknown-preset", "unknown-bot",
        "unknown-backend", "ablate-two-setups"])
def test_a_bad_input_exits_2_in_the_users_language(args: list[str], german: str,
                                                   russian: str, english: str) -> None:
    code, output = _run(*args, "--games", "1", "--locale", "en")
    assert code == 2 and english in output, output
    for locale, expected in (("de", german), ("ru", russian)):
        code, output = _run(*args, "--games", "1", "--locale", locale)
        assert code == 2, output
        assert expected in output, output
        assert english not in output


def test_an_unreadable_or_wrong_setup_file_is_explained(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    code, output = _run("simulate", "--setup", str(missing), "--locale", "de")
    assert code == 2 and f"kann die Aufstellungsdatei {missing} nicht lesen" in output, output
    broken = tmp_path / "broken.yaml"
    broken.write_text("roles: [pony\n", encoding="utf-8")
    code, output = _run("simulate", "--setup", str(broken), "--locale", "ru")
    assert code == 2 and f"{broken} — некорректный YAML" in output, output
    # the reason of a wrapped error is in the same language as the file name's sentence
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("ruleset: changelings\nroles: [pony, wizard, pony, pony, pony, pony]\n",
                     encoding="utf-8")
    code, output = _run("sweep", "--setup", str(wrong), "--vary", "shield=0,1",
                        "--locale", "ru")
    assert code == 2
    assert f"ошибка: {wrong}: неизвестные роли для правил changelings: wizard" in output


def test_an_unknown_locale_is_refused_before_anything_else() -> None:
    code, output = _run("simulate", "--games", "1", "--locale", "fr")
    assert code == 2 and "choose one of de, en, ru" in output


def test_a_cluster_that_cannot_be_reached_says_why_in_the_users_language() -> None:
    backend = DaskBackend("tcp://127.0.0.1:9", connect_timeout=1.0)
    with pytest.raises(BackendError) as caught:
        backend.open()
    error = caught.value
    assert str(error).startswith("cannot reach the Dask scheduler at tcp://127.0.0.1:9: ")
    assert error.localized("de").startswith(
        "der Dask-Scheduler unter tcp://127.0.0.1:9 ist nicht erreichbar: ")
    assert error.localized("ru").startswith(
        "планировщик Dask по адресу tcp://127.0.0.1:9 недоступен: ")


def _simulate(tmp_path: Path, locale: str) -> tuple[str, dict[str, object], str]:
    data, page = tmp_path / f"{locale}.json", tmp_path / f"{locale}.html"
    code, output = _run("simulate", "--preset", "village-8", "--games", "3", "--jobs", "1",
                        "--seed", "2", "--locale", locale, "--json", str(data),
                        "--html", str(page))
    assert code == 0, output
    report = json.loads(data.read_text(encoding="utf-8"))
    del report["timing"]
    return output, report, page.read_text(encoding="utf-8")


def test_the_report_headings_are_translated_and_the_json_is_not(tmp_path: Path) -> None:
    english, data, html = _simulate(tmp_path, "en")
    assert "Win rate by faction" in english and "Nightfall simulation" in english
    assert "<h1>Nightfall balance report</h1>" in html
    german, data_de, html_de = _simulate(tmp_path, "de")
    assert "Nightfall-Simulation" in german and "Siegquote je Seite" in german
    assert "Ausgeschiedene (" in german and "Spieldauer" in german
    assert "Win rate by faction" not in german and "Departures" not in german
    assert '<html lang=de>' in html_de and "<h1>Nightfall-Balancebericht</h1>" in html_de
    assert "<h3>Gründe des Ausscheidens</h3>" in html_de
    russian, data_ru, _ = _simulate(tmp_path, "ru")
    assert "Симуляция Nightfall" in russian and "Доля побед по сторонам" in russian
    assert "Win rate by faction" not in russian
    # the JSON is a data contract: the same keys and values in every language
    assert data_de == data == data_ru
    # the ids of factions and roles stay (setup files and --vary take them)
    assert "ponies" in german and "changeling" in russian


def test_the_sweep_table_and_markdown_are_translated(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    code, output = _run("sweep", "--vary", "changelings=1,2", "--preset", "village-8",
                        "--games", "2", "--jobs", "1", "--locale", "ru", "--out", str(out))
    assert code == 0, output
    assert "Nightfall: перебор параметра" in output
    assert "Доля побед по сторонам в зависимости от параметра: changelings (места)" in output
    assert "записано: " in output
    markdown = (out / "sweep.md").read_text(encoding="utf-8")
    assert "| changelings | игроки | ponies (95% ДИ)" in markdown
    report = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert report["vary"]["label"] == "changelings (seats)"  # JSON stays English
