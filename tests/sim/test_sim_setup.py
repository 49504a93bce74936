"""Setup files (YAML) and presets."""

from __future__ import annotations

from pathlib import Path

import pytest

from nightfall.sim.setup import SetupError, load_setup, preset_setup, setup_from_data

#: C16.3: the seed's final 15-player setup
CANTERLOT_15 = ("queen", "liar", "changeling", "researcher", "love_potion", "pinkie_sense",
                "drama_queen", "night_owl", *["pony"] * 7)


def test_preset_setup() -> None:
    setup = preset_setup("changelings", "canterlot-15")
    assert setup.roles == CANTERLOT_15 and setup.players == 15 and setup.preset == "canterlot-15"
    with pytest.raises(SetupError):
        preset_setup("changelings", "nowhere-3")


def test_setup_file_with_preset_changes(tmp_path: Path) -> None:
    path = tmp_path / "shielded.yaml"
    path.write_text(
        "ruleset: changelings\npreset: canterlot-15\nadd: [shield]\nremove: [pony]\n"
        "options: {first_day_banishment: true}\n", encoding="utf-8")
    setup = load_setup(path)
    assert setup.name == "shielded" and setup.players == 15
    assert setup.role_counts()["shield"] == 1 and setup.role_counts()["pony"] == 6
    assert setup.options["first_day_banishment"] is True and setup.preset is None


def test_setup_from_roles_and_players() -> None:
    by_roles = setup_from_data({"name": "tiny", "ruleset": "changelings",
                                "roles": {"changeling": 2, "researcher": 1, "pony": 5}})
    assert by_roles.players == 8 and by_roles.name == "tiny"
    by_count = setup_from_data({"ruleset": "changelings", "players": 12})
    assert by_count.players == 12


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"ruleset": "chess", "players": 8}, "unknown rule set"),
        ({"ruleset": "changelings"}, "exactly one of"),
        ({"ruleset": "changelings", "players": 8, "roles": ["pony"]}, "exactly one of"),
        ({"ruleset": "changelings", "roles": ["pony", "wizard"]}, "unknown role"),
        ({"ruleset": "changelings", "players": 8, "options": {"fog": 1}}, "unknown option"),
        ({"ruleset": "changelings", "players": 8, "options": {"timezone": "Mars/Base"}},
         "options: Unknown time zone Mars/Base"),
        ({"ruleset": "island", "players": 8, "options": {"midday": "13h"}},
         "options: The option midday takes a time of day as HH:MM, not 13h"),
        ({"ruleset": "changelings", "players": 8, "colour": "red"}, "unknown key"),
        ({"ruleset": "changelings", "preset": "canterlot-15", "remove": ["shield"]},
         "not in the setup"),
    ],
)
def test_bad_setups_are_explained(data: dict[str, object], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        setup_from_data(data)


def test_the_documented_setup_files_load() -> None:
    folder = Path(__file__).parents[2] / "docs" / "balance" / "setups"
    files = sorted(folder.glob("*.yaml"))
    assert files
    for path in files:
        setup = load_setup(path)
        assert setup.players >= 5
