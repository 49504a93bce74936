"""The checker's messages in the GM's language (``rulefile/messages.py``): on the web's
``/new`` a broken file's problems read in German or Russian, every problem the checker
writes for a GM's typical mistakes has a message id, and ``nightfall rules check`` still
prints the English sentences (its default)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nightfall.cli.app import app
from nightfall.engine.text import render
from nightfall.i18n import gettext_for
from nightfall.rulefile.load import RuleFileError, parse_source
from nightfall.rulefile.messages import checker_text, has_template
from nightfall.rulefile.ruleset import SHIPPED, compile_rules
from webkit import make_env

TEXT = SHIPPED["changelings"].read_text(encoding="utf-8")

#: one mistake each, as a GM makes them (the shipped Changelings file, one thing broken)
MISTAKES = [
    ("has(actor, 'voiceless')", "has(actor, 'voiceles')"),  # unknown status in an expression
    ("who: [researcher]", "who: [reseacher]"),  # unknown role
    ('{if: "len(alive()) == 0", faction: draw', '{if: "len(alive())", faction: draw'),  # type
    ("    targets: 2\n", "    tragets: 2\n"),  # misspelt key
    ("steps: [liar, researcher, shield,", "steps: [lier, researcher, shield,"),  # unknown step
    ("  C16.3: {by: [presets.canterlot-15]}\n", "  C16.3: {by: [presets.canterlot-16]}\n"),
    ("  C16.3: {by: [presets.canterlot-15]}\n", "  C16.3: {by: []}\n"),  # neither
    ('post_until: "(until {date} at {time})"', 'post_until: "(until {date})"'),
    ("until: {text: post_until}", "until: {text: post_untill}"),  # unknown text
    ("format: nightfall-rules/1", "format: nightfall-rules/2"),  # a literal choice
    ("title: Changelings\n", "title: [3]\n"),  # a wrong value type
    ("languages: [de, en]", "languages: [en, de, fr]"),  # an unknown language
    ("winners: ", "winers: "),  # a missing and an extra key
    ("len(alive())", "len(alive(1))"),  # wrong number of arguments
    ("has(actor, 'voiceless')", "hass(actor, 'voiceless')"),  # unknown function
    (
        '  leader: {title: "leader", public: true}\n',  # a key given twice
        '  leader: {title: "leader", public: true}\n  leader: {title: "x"}\n',
    ),
]


def _problems(data: str) -> list[str]:
    try:
        compile_rules(parse_source(data.encode(), "broken.yaml"), register_terms=False)
    except RuleFileError as error:
        return [p.message for p in error.problems]
    return []


@pytest.mark.parametrize(("old", "new"), MISTAKES)
def test_every_problem_of_a_typical_mistake_has_a_message_id(old: str, new: str) -> None:
    if old not in TEXT:
        pytest.skip(f"the shipped file no longer has {old!r}")
    messages = _problems(TEXT.replace(old, new, 1))
    assert messages, (old, new)
    for message in messages:
        assert has_template(message), message
        text = checker_text(message)
        assert render(text) == message or text.msgid != message  # English reads the same
        assert render(text, gettext_for("de")) != render(text), message  # translated


def test_a_type_message_drops_the_article_and_keeps_the_expression() -> None:
    text = checker_text("'len(alive())' is an int, a bool is needed here")
    assert render(text, gettext_for("de")) == (
        "'len(alive())' hat den Typ int; hier wird der Typ bool gebraucht"
    )
    assert render(text, gettext_for("ru")) == "'len(alive())' имеет тип int; здесь нужен тип bool"
    assert checker_text("a sentence nobody wrote a template for").params == {
        "detail": "a sentence nobody wrote a template for"
    }


def test_a_broken_upload_on_new_reads_in_german(tmp_path: Path) -> None:
    from webkit import csrf_of

    env = make_env(tmp_path)

    def upload(data: str) -> str:
        token = csrf_of(env.client, "/new")
        return env.client.post(
            "/new/rules?lang=de",
            data={"csrf_token": token},
            files={"rules_file": ("mine.yaml", data.encode(), "text/yaml")},
        ).text

    # a structural mistake first (the file's shape is checked before its names and types)
    page = upload(TEXT.replace("    targets: 2\n", "    tragets: 2\n"))
    assert "abilities.love.tragets (Zeile " in page
    assert "dieser Schlüssel ist hier nicht erlaubt (vertippt?)" in page
    page = upload(
        TEXT.replace("who: [researcher]", "who: [reseacher]").replace(
            '{if: "len(alive()) == 0", faction: draw', '{if: "len(alive())", faction: draw'
        )
    )
    assert "unbekannte Rolle &#39;reseacher&#39;" in page
    assert "&#39;len(alive())&#39; hat den Typ int; hier wird der Typ bool gebraucht" in page
    assert "Extra inputs are not permitted" not in page and "unknown role" not in page


def test_the_cli_prints_the_english_sentences(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(TEXT.replace("who: [researcher]", "who: [reseacher]"), encoding="utf-8")
    result = CliRunner().invoke(app, ["rules", "check", str(path)])
    assert result.exit_code == 2
    assert "key 'abilities.investigate.who[0]': unknown role 'reseacher'" in result.output


def _shapes(node: ast.expr) -> list[str]:
    """The sentences a message literal can write, each part from the code as ``'x'`` (a
    conditional part with literal branches: each branch)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if not isinstance(node, ast.JoinedStr):
        return []
    shapes = [""]
    for value in node.values:
        if isinstance(value, ast.Constant):
            shapes = [s + str(value.value) for s in shapes]
        elif (
            isinstance(value, ast.FormattedValue)
            and isinstance(value.value, ast.IfExp)
            and (_shapes(value.value.body) and _shapes(value.value.orelse))
        ):
            shapes = [
                s + b
                for s in shapes
                for b in _shapes(value.value.body) + _shapes(value.value.orelse)
            ]
        else:
            shapes = [s + "'x'" for s in shapes]
    return shapes


#: a message put together from a variable the parse cannot follow (both of its forms have
#: templates: "… before step {later} writes it", "…, which no earlier step writes")
_BUILT = {"in stage 'x' step 'x' reads 'x''x'"}


def test_every_sentence_the_checker_can_write_has_a_message_id() -> None:
    """Read from the checker's source: a new check whose template was forgotten here
    would reach a German GM in English."""
    missing = []
    for path in sorted((Path(__file__).parents[2] / "src" / "nightfall" / "rulefile").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name not in ("Problem", "ExprError", "RuleProblem", "problem"):
                continue
            for arg in node.args:
                for shape in _shapes(arg):
                    if " " in shape and shape not in _BUILT and not has_template(shape):
                        missing.append(f"{path.name}:{node.lineno}: {shape}")
    assert missing == []


def test_the_cli_speaks_another_language_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(TEXT.replace("who: [researcher]", "who: [reseacher]"), encoding="utf-8")
    result = CliRunner().invoke(app, ["rules", "check", str(path), "--locale", "de"])
    assert result.exit_code == 2
    assert "key 'abilities.investigate.who[0]': unbekannte Rolle 'reseacher'" in result.output
    wrong = CliRunner().invoke(app, ["rules", "check", str(path), "--locale", "fr"])
    assert wrong.exit_code == 2 and "choose one of" in wrong.output
