"""Texts of whole pages that the rule sets define: the status post (a rule file's
``status_post``, Changelings' C16.1), the newspaper (Island, I3.2), a plain roster
otherwise; and the log as sentences."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

from nightfall.engine import Game, GameState, Ruleset, Text
from nightfall.engine import events as ev
from nightfall.engine.talk import notice_text
from nightfall.engine.text import N_, Term, TermNames
from nightfall.i18n import RULESET_NAMES
from nightfall.rulefile.status_post import status_post_of
from nightfall.web.i18n import Translator
from nightfall.web.pages import LogEntry, effective

Gettext = Callable[[str], str]

#: rule set -> (module, function, title msgid) of a Python plugin's public text
PUBLIC_POSTS = {
    "island": ("nightfall.rulesets.island.newspaper", "newspaper", N_("Newspaper")),
}


def status_title(ruleset: str, rules: Ruleset | None = None) -> str:
    """The heading of the public status page: a rule file's ``status_post`` title
    (Changelings' too), Island's newspaper, or "Status"."""
    post = status_post_of(rules) if rules is not None else None
    if post is not None:
        return post.title
    return PUBLIC_POSTS.get(ruleset, ("", "", N_("Status")))[2]


def status_text(state: GameState, tr: Translator, rules: Ruleset | None = None) -> str:
    """The rule set's public status text in the reader's language: the rule file's status
    post (C16.1), Island's newspaper (I3.2), or a plain roster."""
    post = status_post_of(rules) if rules is not None else None
    if post is not None:
        return post.render(state, tr.gettext)
    found = PUBLIC_POSTS.get(state.ruleset)
    if found is not None:
        try:
            function = getattr(importlib.import_module(found[0]), found[1])
        except (ImportError, AttributeError):
            function = None
        if function is not None:
            return str(function(state, tr.gettext))
    lines = [tr.phase(state.phase_label), ""]
    for player in state.players.values():
        role = tr.term("role", player.role) if (not player.alive or state.ended) else ""
        mark = "" if player.alive else " †"
        lines.append(f"{player.name}{mark} {role}".rstrip())
    return "\n".join(lines)


def log_line(event: ev.Event, ruleset: Ruleset, tr: Translator) -> str | None:
    """One event of the log as a sentence for the reveal (``None``: shown elsewhere)."""
    text: Text | None = None
    if isinstance(event, ev.PhaseStarted):
        return None
    if isinstance(event, ev.Announced):
        return tr.text(event.text)
    if isinstance(event, ev.PlayerJoined):
        text = Text(N_("{name} signs up."), {"name": event.player})
    elif isinstance(event, ev.PlayerWithdrew):
        text = Text(N_("{name} withdraws."), {"name": event.player})
    elif isinstance(event, ev.RoleAssigned):
        text = Text(N_("{name} is {role}."), {"name": event.player,
                                              "role": Term("role", event.role)})
    elif isinstance(event, ev.ItemGiven):
        text = Text(N_("{name} receives the item {item}."),
                    {"name": event.player, "item": Term("item", event.item)})
    elif isinstance(event, ev.ItemTaken):
        text = Text(N_("{name} loses the item {item}."),
                    {"name": event.player, "item": Term("item", event.item)})
    elif isinstance(event, ev.StatusChanged):
        text = Text(N_("{name}: {status} on.") if event.present else N_("{name}: {status} off."),
                    {"name": event.player, "status": Term("status", event.status)})
    elif isinstance(event, ev.PlayerLeft):
        text = Text(N_("{name} leaves the game: {cause}."),
                    {"name": event.player, "cause": Term("cause", event.cause)})
    elif isinstance(event, ev.Submitted):
        text = Text(N_("{name}: {action} {targets}"),
                    {"name": event.player, "action": Term("action", event.action),
                     "targets": ", ".join([*event.targets, *([drawn_name(event.choice, ruleset, tr)]
                                                              if event.choice else [])])})
    elif isinstance(event, ev.SubmissionWithdrawn):
        text = Text(N_("{name} withdraws a submission."), {"name": event.player})
    elif isinstance(event, ev.Posted):
        text = Text(N_("{name} posts in the thread."), {"name": event.player})
    elif isinstance(event, ev.NoticeSent):
        return f"→ {event.player}: " + tr.text(notice_text(ruleset, event.notice))
    elif isinstance(event, ev.RandomDrawn):
        return tr(N_("Chance draws {chosen} ({purpose})."),
                  chosen=drawn_name(event.chosen, ruleset, tr),
                  purpose=draw_purpose(event.purpose, tr))
    elif isinstance(event, ev.GmActed):
        return gm_line(event, ruleset, tr)
    elif isinstance(event, ev.StageClosed):
        text = Text(N_("{phase} closes.") if not event.skipped else N_("{phase} is skipped."),
                    {"phase": Term("phase", event.phase)})
    elif isinstance(event, ev.GameEnded):
        text = Text(N_("The game ends: {winner} won."),
                    {"winner": Term("faction", event.winner)})
    elif isinstance(event, ev.StepTraced | ev.DeadlineChanged | ev.FlagSet | ev.VotesCounted
                    | ev.GameCreated | ev.ItemUsedChanged | ev.GmPosted  # GmPosted: thread
                    | ev.ObserverAdmitted):  # its GmActed line says it
        return None
    return tr.text(text) if text is not None else type(event).__name__


#: the game master's acts by name: the core's and the rule sets' (the dashboard's forms,
#: its "Done: …" message and the reveal's log); ``overrule`` is a ``violation`` with the
#: choice ``no``/``overrule`` (Island I5, I8), which withdraws a mark or a detection
TermNames.register("gm", {
    "advance": N_("close the phase now"),
    "extend": N_("extend the deadline"),
    "shorten": N_("shorten the deadline"),
    "skip": N_("skip the phase"),
    "modkill": N_("remove a player (modkill)"),
    "say": N_("post as game master"),
    "tell": N_("message to a player"),
    "undo": N_("undo to the last phase boundary"),
    "set_deadline": N_("set a new deadline"),
    "event": N_("force the day's event"),
    "answer": N_("answer the spirit"),
    "refuse": N_("refuse the spirit's question"),
    "admit": N_("let an observer into the thread"),
    "violation": N_("mark a conduct violation"),
    "overrule": N_("overrule a violation"),
})
OVERRULE = frozenset({"no", "overrule"})


def gm_choice_name(ruleset: Ruleset, action: str, choice: str, tr: Translator) -> str | None:
    """The name of a choice the rule set declares for a GM act (an event, the spirit's
    answer) in the reader's language; ``None`` if ``choice`` is none of them."""
    for term in ruleset.gm_choices.get(action, ()):
        if term.id == choice:
            return tr.term(term.domain, term.id)
    return None


def gm_line(event: ev.GmActed, ruleset: Ruleset, tr: Translator) -> str:
    """A GM act of the log in words: "Game master: force the day's event Spirit Call",
    not the stored ``event spirit``. The detail is what the act stores: a choice of the
    rule set, a phase label (skip, undo), minutes (extend, shorten) or a free text."""
    action, detail = event.action, event.detail or ""
    if action == "violation" and detail in OVERRULE:
        action, detail = "overrule", ""
    named = gm_choice_name(ruleset, action, detail, tr) if detail else None
    if named is not None:
        detail = named
    elif action in ("skip", "undo") and detail:
        detail = tr.phase(detail)
    elif action in ("extend", "shorten") and detail.isdigit():
        detail = tr(N_("{minutes} min."), minutes=detail)
    parts = [x for x in (event.target, detail) if x]
    return tr(N_("Game master: {action} {detail}"), action=tr.term("gm", action),
              detail=" ".join(parts)).rstrip()


def drawn_name(chosen: str, ruleset: Ruleset, tr: Translator) -> str:
    """What chance picked, by its name in the reader's language: a role, an item or a
    day's event; anything else (a player) as it is."""
    if chosen in ruleset.roles:
        return tr.term("role", chosen)
    if chosen in ruleset.item_ids:
        return tr.term("item", chosen)
    if TermNames.known(Term("event", chosen)) is not None:
        return tr.term("event", chosen)
    return chosen


def draw_purpose(purpose: str, tr: Translator) -> str:
    """What a draw was for: ``deal:Ann`` reads "role for Ann" (the part before ":" is a
    term of the domain ``draw`` that the engine and the rule sets register)."""
    kind, _, subject = purpose.partition(":")
    title = TermNames.known(Term("draw", kind))
    if title is None:
        return purpose
    return f"{tr(title)} {subject}".strip()


def log_by_phase(log: Sequence[LogEntry], ruleset: Ruleset, tr: Translator
                 ) -> list[tuple[str, list[str], list[ev.StepTraced]]]:
    """The whole (effective) log grouped by phase: sentences and resolution traces."""
    groups: list[tuple[str, list[str], list[ev.StepTraced]]] = [("signup", [], [])]
    for _, _, event in effective(log):
        if isinstance(event, ev.PhaseStarted):
            groups.append((event.label, [], []))
            continue
        if isinstance(event, ev.StepTraced):
            groups[-1][2].append(event)
            continue
        line = log_line(event, ruleset, tr)
        if line is not None:
            groups[-1][1].append(line)
    return [g for g in groups if g[1] or g[2]]


def game_title(game: Game, title: str, tr: Translator) -> str:
    return title or tr(N_("{ruleset} game"), ruleset=tr(ruleset_name(game.state.ruleset)))


def ruleset_name(ruleset: str) -> str:
    """The msgid of the rule set's display name (``nightfall.i18n.RULESET_NAMES``)."""
    return RULESET_NAMES.get(ruleset, ruleset)
