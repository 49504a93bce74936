"""C7.1, C7.2: a changeling's page says, by name and in his language, what his team has
chosen and whether his own choice leaves them disagreeing (so that nobody is taken) —
before he chooses and after. Only the changelings' projections carry it (C1.7)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from changelingskit import fact, is_changeling_side, plan_reason
from gamekit import TEAM_ROLES, all_commands, make_game, play_at_random
from nightfall.engine import Command, Game
from nightfall.i18n import localize
from nightfall.web.i18n import from_data

#: P00, P01, P02 the team; P03 leads
ROLES = ["changeling", "changeling", "queen", "pony", "pony", "pony", "pony", "shield"]


def night() -> Game:
    game = make_game(ROLES, seed=1)
    game.execute(Command("elect", by="P03", target="P03"))
    game.advance()
    return game


def notes(game: Game, player: str, locale: str = "en") -> list[str]:
    return [localize(from_data(note), locale)
            for note in game.view(player)["me"].get("move_notes", [])]


def test_before_he_chooses_he_reads_whom_the_others_named() -> None:
    game = night()
    assert notes(game, "P01") == []  # nobody chose yet
    game.execute(Command("abduct", by="P00", target="P04"))
    assert notes(game, "P01") == [
        "P00 chose abduct → P04: if you choose anything else, nobody is abducted or "
        "replaced tonight (C7.1, C7.2)."]
    assert notes(game, "P01", "de") == [
        "Gewählt von P00: entführen → P04. Wählst du etwas anderes, wird heute Nacht "
        "niemand entführt oder ausgetauscht (C7.1, C7.2)."]
    assert notes(game, "P01", "ru") == [
        "Выбор (P00): похитить → P04. Если выберешь что-то другое, этой ночью никого не "
        "похитят и не подменят (C7.1, C7.2)."]
    assert notes(game, "P00") == []  # his own choice alone is no news to him


def test_after_a_differing_choice_both_read_that_nobody_is_taken() -> None:
    game = night()
    game.execute(Command("abduct", by="P00", target="P04"))
    game.execute(Command("abduct", by="P01", target="P05"))
    assert notes(game, "P01") == [
        "P00 chose abduct → P04, you chose abduct → P05: as it stands, nobody is abducted "
        "or replaced tonight (C7.1, C7.2)."]
    assert notes(game, "P00", "de") == [
        "Gewählt von P01: entführen → P05, von dir: entführen → P04. So wie es steht, wird "
        "heute Nacht niemand entführt oder ausgetauscht (C7.1, C7.2)."]
    # the third, who has not chosen, reads both choices and the disagreement
    assert notes(game, "P02") == [
        "P00 chose abduct → P04.", "P01 chose abduct → P05.",
        "Your team disagrees: as it stands, nobody is abducted or replaced tonight. Every "
        "changeling who chooses must make the same choice (C7.1, C7.2)."]
    game.execute(Command("abduct", by="P01", target="P04"))  # he changes his mind
    assert notes(game, "P01") == ["Your team agrees: abduct → P04 (C7.1)."]


def test_abduct_against_replace_is_a_disagreement_a_pass_is_none() -> None:
    game = night()
    game.execute(Command("replace", by="P00", target="P04"))
    game.execute(Command("pass", by="P02"))  # names nobody: no disagreement
    assert notes(game, "P01") == [
        "P00 chose replace → P04: if you choose anything else, nobody is abducted or "
        "replaced tonight (C7.1, C7.2)."]
    game.execute(Command("abduct", by="P01", target="P04"))
    assert notes(game, "P01", "ru") == [
        "Выбор (P00): подменить → P04, твой выбор: похитить → P04. Как сейчас, этой ночью "
        "никого не похитят и не подменят (C7.1, C7.2)."]


def test_nobody_else_reads_it_and_it_ends_with_stage_one() -> None:
    game = night()
    game.execute(Command("abduct", by="P00", target="P04"))
    game.execute(Command("abduct", by="P01", target="P05"))
    for outsider in ("P03", "P04", "P07"):
        assert "move_notes" not in game.view(outsider)["me"]
    assert "move_notes" not in game.view(None).get("me", {})
    game.advance()  # stage 2: the choice is made, and the team is told they differed
    assert notes(game, "P02") == [
        "Your team did not agree: nobody is abducted or replaced tonight (C7.1, C7.2)."]
    assert "move_notes" not in game.view("P03")["me"]
    game.advance()  # day 2
    assert notes(game, "P00") == []


def test_after_an_agreement_stage_two_says_nothing_of_why() -> None:
    """A shield that stops the agreed abduction is never explained (C13.1, C7.3)."""
    game = night()
    game.execute(Command("abduct", by="P00", target="P04"))
    game.execute(Command("shield", by="P07", target="P04"))
    game.advance()
    assert notes(game, "P00") == [] and notes(game, "P01") == []


#: the words of a disagreement, in stage 1 (as it stands) and stage 2 (settled)
DISAGREEING = ("as it stands, nobody is abducted or replaced tonight",
               "Your team did not agree: nobody is abducted or replaced tonight")


def check_pages_match_the_plan(game: Game, _: bool) -> None:
    """What the team's pages say is what stage 1 would settle now: if the choices made so
    far disagree (C7.1, C7.2), every changeling's page says nobody will be taken; if they
    agree, none says so."""
    state = game.state
    if state.ended or state.phase.kind != "night":
        return
    # stage 2: what stage 1 settled
    reason = plan_reason(state) if state.phase.stage == 1 else str(fact(state, "attack_reason"))
    for name, player in state.players.items():
        if not (player.alive and is_changeling_side(player.role)):
            continue
        warned = any(words in line for line in notes(game, name) for words in DISAGREEING)
        assert warned == (reason == "disagreement"), (name, reason, notes(game, name))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(team=st.lists(st.sampled_from(TEAM_ROLES), min_size=2, max_size=3),
       ponies=st.integers(4, 7), seed=st.integers(0, 2**32), data=st.data())
def test_every_team_page_tells_the_disagreement_the_rules_see(
        team: list[str], ponies: int, seed: int, data: st.DataObject) -> None:
    game = make_game([*team, "shield", *["pony"] * ponies], seed)
    play_at_random(game, data, 80, all_commands, check_pages_match_the_plan)
