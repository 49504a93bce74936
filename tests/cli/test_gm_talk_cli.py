"""``nightfall game say`` and ``game tell`` in real subprocesses: the GM's post lands in the
thread and his message among one player's notices, the lines come in the game's language,
and a refused text or name is exit 1 with the reason and changes nothing."""

from __future__ import annotations

from pathlib import Path

from test_game_cli import run_cli

from nightfall.service import GameService

ROLES = {"Ann": "changeling", "Bob": "pony", "Cid": "researcher", "Dee": "pony", "Eve": "pony"}


def test_say_and_tell_through_the_cli_in_the_games_language(tmp_path: Path) -> None:
    db = tmp_path / "talk.db"
    service = GameService(url=f"sqlite:///{db}")
    gid = service.create("changelings", 3, {"early_close": False}, "de").id
    for name in ROLES:
        service.signup(gid, name)
    service.assign(gid, ROLES)
    service.start(gid)

    said = run_cli(db, "say", gid, "  Die Nacht bricht herein. *Eine Tür knarrt.*  ")
    assert said.returncode == 0, said.stderr
    assert "als Spielleitung im Thread gepostet" in said.stdout
    told = run_cli(db, "tell", gid, "ann", "Dein Laternchen ist beschlagnahmt.")
    assert told.returncode == 0, told.stderr
    assert "Nachricht an Ann gesendet" in told.stdout

    state = service.load(gid).state
    assert [(p.player, p.text) for p in state.thread] == [
        (None, "Die Nacht bricht herein. *Eine Tür knarrt.*")]
    assert state.notices["Ann"][-1] == {"kind": "gm_message",
                                        "text": "Dein Laternchen ist beschlagnahmt."}
    assert all(n.get("kind") != "gm_message" for p in ("Bob", "Cid", "Dee", "Eve")
               for n in state.notices[p])
    head = service.meta(gid).head_seq

    unknown = run_cli(db, "tell", gid, "Zed", "Hallo")
    assert unknown.returncode == 1
    assert "abgelehnt:" in unknown.stderr and "Es gibt keinen Spieler namens Zed." in unknown.stderr
    empty = run_cli(db, "say", gid, "   ")
    assert empty.returncode == 1 and "Ein Post braucht etwas Text." in empty.stderr
    assert service.meta(gid).head_seq == head
