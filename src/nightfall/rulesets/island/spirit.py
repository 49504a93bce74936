"""The spirit call (I5 ``spirit``): who asks the Island Spirit, the question, the GM's
refusal or answer.

The seed: «игроки (либо один игрок, выбранный всеми) отправляет вопрос Духу Острова» —
the players, or one player chosen by all, send the Spirit (the GM) a yes/no question that
must not give a role away outright; question, answer and asker are published. Nightfall's
rulings [R] (docs/rules/island.md, I5 spirit):

- Until 13:00 every living player may send a question (``spirit_ask``); the last one sent
  is the day's question — unless the players choose an asker.
- Choosing: each living player may name an asker (``spirit_nominate``, himself too; his
  last nomination counts) until 13:00. As soon as more than half of the living players
  name the same player, he is the day's asker, announced in the thread; from then on only
  his question counts (one sent before by another player is set aside) and the choice is
  final for the day.
- The GM may refuse the pending question (``refuse``, with a reason) because it would
  give a role away: the refusal, with the question and the reason, is announced, the asker
  is told, and another question may be sent — after 13:00 too, until the GM has an
  acceptable one: a question sent after 13:00 is published at once.
- The GM answers yes or no (``answer``); the answer is published with the question at
  13:00, or at once when it is given later. A question answered is final.
- The newspaper names the chosen asker, every refused question with its reason, and the
  question, its asker and the answer.

Everything lives in one flag (``memory.SPIRIT``): ``asker``, ``text``, ``answer`` (the
pending or answered question), ``chosen`` (the asker the players chose) and ``refused``
(``[{asker, text, reason}]``).
"""

from __future__ import annotations

from typing import Any

from nightfall.engine import N_, Context, GameState, Term, Text
from nightfall.rulesets.island import memory

NOMINATION = "spirit_nominate"  # the submission slot of the asker nominations


def chosen(state: GameState) -> str | None:
    value = memory.spirit(state).get("chosen")
    return str(value) if value else None


def pending(state: GameState) -> bool:
    """Is a question waiting for the spirit's answer?"""
    asked = memory.spirit(state)
    return bool(asked.get("text")) and not asked.get("answer")


def answered(state: GameState) -> bool:
    asked = memory.spirit(state)
    return bool(asked.get("text")) and bool(asked.get("answer"))


# -- the checks of the two abilities (abilities.py) ------------------------------------------
def nomination_refusal(state: GameState) -> Text | None:
    """``spirit_nominate`` once the asker is chosen: the choice is final for the day."""
    name = chosen(state)
    if name is not None:
        return Text(N_("The players have already chosen {name} to ask the Island Spirit "
                       "today (I5)."), {"name": name})
    return None


def question_refusal(state: GameState, actor: str) -> Text | None:
    """``spirit_ask``: only the chosen asker once there is one; nothing after an answer;
    after 13:00 only in place of a refused question, and one at a time."""
    name = chosen(state)
    if name is not None and name != actor:
        return Text(N_("The players chose {name} to ask the Island Spirit today; only his "
                       "question counts (I5)."), {"name": name})
    if answered(state):
        return Text(N_("The Island Spirit has answered today's question (I5)."))
    if state.phase.stage != 1:
        asked = memory.spirit(state)
        if not asked.get("refused"):
            return Text(N_("{action} is possible only until 13:00."),
                        {"action": Term("action", "spirit_ask")})
        if pending(state):
            return Text(N_("A question is waiting for the Island Spirit's answer (I5)."))
    return None


# -- what the commands and the GM's acts do (ruleset.py) -----------------------------------
def _store(ctx: Context, **changes: Any) -> None:
    ctx.flag(memory.SPIRIT, {**memory.spirit(ctx.state), **changes})


def nominate(ctx: Context) -> None:
    """After a nomination: is a player named by more than half of the living now?"""
    state = ctx.state
    alive = state.alive()
    counts: dict[str, int] = {}
    for sub in state.submissions_in(NOMINATION):
        if state.is_alive(sub.player) and sub.target is not None and state.is_alive(sub.target):
            counts[sub.target] = counts.get(sub.target, 0) + 1
    winner = next((name for name, count in counts.items() if 2 * count > len(alive)), None)
    if winner is None:
        return
    asked = memory.spirit(state)
    if asked.get("text") and asked.get("asker") != winner:  # another's question: aside
        _store(ctx, chosen=winner, asker=None, text=None, answer=None)
    else:
        _store(ctx, chosen=winner)
    ctx.announce(N_("The players have chosen {name} to ask the Island Spirit today."),
                 name=winner)


def ask(ctx: Context, actor: str, text: str) -> None:
    """The day's question is ``actor``'s; after 13:00 (a refused one replaced) it is
    published at once."""
    _store(ctx, asker=actor, text=text, answer=None)
    if ctx.state.phase.stage != 1:
        announce_question(ctx)


def refuse(ctx: Context, reason: str) -> None:
    """The GM refuses the pending question: it would give a role away."""
    asked = memory.spirit(ctx.state)
    refused = [*(asked.get("refused") or []),
               {"asker": asked.get("asker"), "text": asked.get("text"), "reason": reason}]
    _store(ctx, asker=None, text=None, answer=None, refused=refused)
    ctx.announce(N_("The Island Spirit refuses the question of {name} (“{text}”): {reason} "
                    "Ask another one."), name=asked.get("asker"), text=asked.get("text"),
                 reason=reason)
    ctx.notify(str(asked.get("asker")), "spirit_refused", text=asked.get("text"),
               reason=reason)


def answer(ctx: Context, choice: str) -> None:
    _store(ctx, answer=choice)
    if ctx.state.phase.stage == 2:  # the question is public already
        announce_answer(ctx, choice)


def publish(ctx: Context) -> None:
    """Stage 1 (13:00): the day's question, its asker and (if given) the answer."""
    asked = memory.spirit(ctx.state)
    if not asked.get("text"):
        if asked.get("chosen"):
            ctx.trace(N_("{name}, the players' choice, asked the Island Spirit nothing."),
                      name=asked.get("chosen"))
        else:
            ctx.trace(N_("Nobody asked the Island Spirit a question."))
        return
    ctx.trace(N_("{name} asks the Island Spirit: “{text}”"), name=asked.get("asker"),
              text=asked.get("text"))
    announce_question(ctx)
    if asked.get("answer"):
        announce_answer(ctx, str(asked["answer"]))


def announce_question(ctx: Context) -> None:
    asked = memory.spirit(ctx.state)
    ctx.announce(N_("{name} asks the Island Spirit: “{text}”"), name=asked.get("asker"),
                 text=asked.get("text"))


def announce_answer(ctx: Context, choice: str) -> None:
    ctx.announce(N_("The Island Spirit answers: {answer}."), answer=Term("answer", choice))


def public(state: GameState, over: bool) -> dict[str, Any] | None:
    """What everybody may know of today's spirit call: the chosen asker and the refusals
    at once; the question, its asker and the answer once published (13:00, or at once
    after 13:00), everything after the end."""
    asked = memory.spirit(state)
    if not asked:
        return None
    if over or state.phase.stage == 2:
        return dict(asked)
    shown = {key: asked[key] for key in ("chosen", "refused") if asked.get(key)}
    return shown or None
