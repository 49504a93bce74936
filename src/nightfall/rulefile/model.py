"""The shape of a rule file (``format: nightfall-rules/1``) as pydantic models.

The models check the structure: keys, their types, required fields; an unknown key is an
error (a misspelt ``tragets:`` must not be ignored). Expressions and effect lists are
kept as written (strings, lists of mappings) and compiled by :mod:`.compile`, which
knows the names the file declares; see docs/rules-format.md for every key.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

FORMAT = "nightfall-rules/1"

#: an expression in the rule file's language (``expr.py``); YAML may read ``true``/``1``
Expression = str | bool | int
#: an effect list: each item a mapping with one effect keyword (see ``effects.py``)
Effects = list[dict[str, Any]]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Option(Strict):
    default: bool | int | str
    title: str = ""


class Faction(Strict):
    title: str


class RoleSpec(Strict):
    faction: str
    rule: str
    title: str
    #: what the holder reads about his role (a text key)
    text: str | None = None
    special: bool = True
    tags: list[str] = Field(default_factory=list)


class Named(Strict):
    title: str
    public: bool = False


class FactSpec(Strict):
    """A fact the rule set remembers between stages: an engine flag under ``key``
    (``key`` + the player's name for a fact kept per player)."""

    key: str
    type: str
    per_player: bool = False
    #: ``resolution``: a fact only this stage's resolution writes and reads (the
    #: validator refuses a step that reads it before the step that writes it); ``game``:
    #: kept between stages (a step may read last night's value before it is rewritten)
    lasts: Literal["game", "resolution"] = "game"
    rule: str = ""


class Check(Strict):
    """A refusal: when ``if`` holds, the command is refused with the text ``refuse``."""

    refuse: str
    if_: Expression = Field(alias="if")
    params: dict[str, Expression] = Field(default_factory=dict)


class BotLearns(Strict):
    """What a private notice tells a simulator bot: the player named in the notice's field
    ``player`` is of the faction in its field ``faction`` (or, when the notice has no such
    field, of the faction of that id)."""

    notice: str
    player: str
    faction: str


class BotHint(Strict):
    """How the simulator's heuristic bots play an ability (docs/rules-format.md, "Hints
    for the bots"); public, like the rest of the file. Without a hint an ability that
    names a target is used against the most suspected player outside the bot's side; of
    those without targets (a pass) the first is used when the bot chose nothing else."""

    #: harm: the most suspected player (a village bot) or the biggest threat (an evil
    #: one), never a known ally; protect: the most trusted (an evil bot: its allies);
    #: investigate: a player the bot knows least about; link: players chosen by chance;
    #: use: whenever legal (targets by chance); skip: never
    intent: Literal["harm", "protect", "investigate", "link", "use", "skip"] = "harm"
    #: whom the targets are taken from (default by intent: harm and investigate: others
    #: outside the bot's known side; protect, link and use: others)
    prefer: Literal["others", "not_own_faction", "own_faction", "self", "any"] | None = None
    #: always; justified: only against a player suspected enough to vote against
    when: Literal["always", "justified"] = "always"
    #: the chance that the bot uses the ability when it may (a risky one: below 1)
    odds: float = Field(default=1.0, ge=0.0, le=1.0)
    #: a public vote: without a justified suspect, the chance that the bot joins the
    #: player with the most votes so far in the ability's slot (two or more)
    crowd: float = Field(default=0.0, ge=0.0, le=1.0)
    #: an investigator publishes its results in the thread: when it found someone of
    #: another side (found), after every result (always), or never
    publish: Literal["found", "always", "never"] = "found"
    learns: list[BotLearns] = Field(default_factory=list)


class AbilitySpec(Strict):
    rule: str
    title: str
    slot: str = ""
    #: role ids or ``tag:NAME``; empty: every player
    who: list[str] = Field(default_factory=list)
    #: a window of ``schedule.windows`` (``always``: any time)
    when: str = "always"
    targets: Literal[0, 1, 2, "any"] = 1
    self_target: bool = True
    standing: bool = False
    #: a departed player may still use it while this holds (C2.7 exceptions)
    after_leaving: Expression = False
    #: the generic checks (in the game, the role, the window); ``false`` for ``pass``
    generic: bool = True
    checks: list[Check] = Field(default_factory=list)
    choices: Expression | None = None
    offered: bool = True
    #: a text key: one line under its form on the player's page saying what it does
    explain: str | None = None
    #: what the command does once accepted (default: it is submitted in its slot)
    does: Effects = Field(default_factory=lambda: [{"submit": True}])
    #: how the simulator's bots play it (read by no rule)
    bots: BotHint | None = None


class Deadline(Strict):
    at: str
    days: int = 0


class StageSpec(Strict):
    kind: Literal["day", "night"]
    stage: int = 1
    label: str
    deadline: Deadline
    #: which inputs the stage awaits before it may close early; ``null``: never early
    awaits: list[dict[str, Any]] | None = None
    #: the resolution: step ids in order; ``before``: conditional steps numbered 0
    before: list[dict[str, Any]] = Field(default_factory=list)
    steps: list[str | dict[str, Any]] = Field(default_factory=list)
    after: Effects = Field(default_factory=list)
    on_start: Effects = Field(default_factory=list)
    #: where play goes when the stage ends: the first entry whose ``if`` holds
    next: list[dict[str, Any]] = Field(default_factory=list)


class Schedule(Strict):
    first: str
    windows: dict[str, Expression] = Field(default_factory=dict)
    stages: dict[str, StageSpec]


class StepSpec(Strict):
    rule: str
    title: str
    reads: list[str] = Field(default_factory=list)
    writes: list[str] = Field(default_factory=list)
    do: Effects


class Procedure(Strict):
    params: dict[str, str] = Field(default_factory=dict)
    do: Effects


class Victory(Strict):
    if_: Expression = Field(alias="if")
    faction: str
    winners: Expression
    rule: str = ""


class NoticeText(Strict):
    text: str
    if_: Expression = Field(default=True, alias="if")
    params: dict[str, Expression] = Field(default_factory=dict)


class Preset(Strict):
    roles: list[str]
    description: str = ""


class Deal(Strict):
    min_players: int
    max_players: int
    let: dict[str, Expression] = Field(default_factory=dict)
    roles: Expression


class Note(Strict):
    """A line of a viewer's notes: ``text`` when ``if`` holds (for each ``for`` in ``in``)."""

    text: str
    if_: Expression = Field(default=True, alias="if")
    for_: str | None = Field(default=None, alias="for")
    in_: Expression | None = Field(default=None, alias="in")
    params: dict[str, Expression] = Field(default_factory=dict)


class Notes(Strict):
    """Sentences of the viewer's own entry (e.g. what his team's choices mean): shown,
    as a list, only when ``if`` holds for the viewer."""

    if_: Expression = Field(default=True, alias="if")
    lines: list[Note]


class View(Strict):
    #: whether ``viewer`` sees the role of ``p`` (besides his own, the departed ones)
    role_seen: Expression = False
    #: whether ``viewer`` sees the status ``s`` of ``p`` (besides public statuses)
    status_seen: Expression = False
    #: the public vote slots
    public_slots: list[str] = Field(default_factory=list)
    #: extra fields of the viewer's own entry: name -> expression over ``viewer``
    me: dict[str, Expression | dict[str, Expression]] = Field(default_factory=dict)
    #: lists of sentences in the viewer's own entry, by field name
    notes: dict[str, Notes] = Field(default_factory=dict)


class PostText(Strict):
    """A sentence of the status post: the text ``text`` (a key of ``texts``) when ``if``
    holds; of a list of them the first that holds is shown (none: no line)."""

    text: str
    if_: Expression = Field(default=True, alias="if")
    params: dict[str, Expression] = Field(default_factory=dict)


class PostRounds(Strict):
    """The phase lines (C16.1): one per round played so far — the sign-up, the deal, each
    day and night — in order, each ``layout`` with its title and how far it is. A title
    is chosen from ``titles`` by ``kind`` (``signup``, ``setup``, ``day``, ``night``) and
    ``number``; its parameter ``ordinal`` is the word of ``ordinals`` for ``number``."""

    titles: list[PostText]
    #: text keys: the words for 1, 2, 3, ... (beyond the list: ``3.``)
    ordinals: list[str] = Field(default_factory=list)
    running: str
    finished: str
    #: how a line is laid out (not translated): ``{title}`` and ``{progress}``
    layout: str = "{title}... {progress}"
    #: the line under the running round while it has a deadline: parameters ``date``
    #: and ``time``, in the game's ``timezone`` option, written as the formats say
    until: PostText | None = None
    date_format: str = "%d.%m.%y"
    time_format: str = "%H:%M"


class PostPart(Strict):
    """One part of a player's line: ``value`` (an expression: a name, a role, a list of
    statuses ... each shown by its translated title; nothing for none, ``''`` or an empty
    list) or ``text`` with ``params``, when ``if`` holds; ``sep`` goes before it when a
    part is shown before it (and between the items of a list)."""

    value: Expression | None = None
    text: str | None = None
    params: dict[str, Expression] = Field(default_factory=dict)
    if_: Expression = Field(default=True, alias="if")
    sep: str = ", "


class PostPlayers(Strict):
    """One line per player of ``in`` (for which ``if`` holds), in ``order``: his name, and
    when a part is shown, ``name_sep`` and the parts."""

    for_: str = Field(default="p", alias="for")
    in_: Expression = Field(default="players()", alias="in")
    if_: Expression = Field(default=True, alias="if")
    #: ``name``: by name, case-insensitively; ``seat``: as seated; ``listed``: as ``in``
    order: Literal["name", "seat", "listed"] = "name"
    name_sep: str = ": "
    parts: list[PostPart] = Field(default_factory=list)


class PostBlock(Strict):
    """One block of the status post: exactly one of ``rounds``, ``line`` (a sentence,
    the first of the alternatives that holds), ``players`` or ``blank: true``; shown only
    when ``if`` holds."""

    if_: Expression = Field(default=True, alias="if")
    rounds: PostRounds | None = None
    line: list[PostText] | None = None
    players: PostPlayers | None = None
    blank: bool = False


class StatusPost(Strict):
    """The status post a GM pastes into the thread (``rulefile/status_post.py``)."""

    #: the text key of its heading on the pages ("Status post")
    title: str
    rule: str = ""
    show: list[PostBlock]


class Hook(Strict):
    version: int


class RuleEntry(Strict):
    """One numbered rule (or ruling) of the variant and what in this file plays it: the
    key paths ``by`` (``abilities.shield``, ``steps.tally``, ``victory.0``), or, for a
    rule that no key can play (forum etiquette, advice to the GM), ``not_mechanic``: why.
    The checker refuses a path that names nothing (``rulefile/rulemap.py``)."""

    by: list[str] = Field(default_factory=list)
    not_mechanic: str | None = None
    #: the rules document marks it as a ruling (**[R]**, a decision of this variant)
    ruling: bool = False


class ForumVotePattern(Strict):
    """One written form of a vote in a forum post: a Python regular expression over the
    post's own text in canonical BBCode, with a group named ``name``."""

    regex: str
    #: strict: the form declares a vote by itself (a name it does not resolve is
    #: reported); lenient (``false``): also ordinary text (bold), left alone then
    strict: bool = True


class ForumVotes(Strict):
    """How the game's votes are written in a forum thread, for the vote counter
    (``nightfall votecount``, the GM's page; docs/rules-format.md, "Forum votes")."""

    #: a vote is a player's name in red (as in Changelings, C3.1)
    red: bool = False
    patterns: list[ForumVotePattern] = Field(default_factory=list)
    #: the zone of the forum's times when the game sets none (``options.timezone``)
    timezone: str = "UTC"
    #: the time of day of the vote stop when a GM gives a deadline as a date alone
    deadline: str = "00:00"
    #: a player without a valid vote votes for himself (as in Island of Fear, I6.3)
    non_voters_vote_self: bool = False
    #: texts (in a vote form) that withdraw the author's vote
    unvote: list[str] = Field(default_factory=lambda: ["unvote"])
    #: the shortest prefix of a name that may name a player
    min_prefix: int = Field(default=2, ge=1)


class RuleFile(Strict):
    format: Literal["nightfall-rules/1"]
    id: str
    title: str
    languages: list[str] = Field(default_factory=list)
    min_players: int = 3
    max_players: int = 60
    hooks: dict[str, Hook] = Field(default_factory=dict)
    options: dict[str, Option] = Field(default_factory=dict)
    scenario_options: dict[str, bool | int | str] = Field(default_factory=dict)
    factions: dict[str, Faction]
    roles: dict[str, RoleSpec]
    statuses: dict[str, Named] = Field(default_factory=dict)
    causes: dict[str, Named] = Field(default_factory=dict)
    draws: dict[str, str] = Field(default_factory=dict)
    slots: dict[str, str] = Field(default_factory=dict)
    records: dict[str, dict[str, str]] = Field(default_factory=dict)
    facts: dict[str, FactSpec] = Field(default_factory=dict)
    define: dict[str, Expression] = Field(default_factory=dict)
    texts: dict[str, str] = Field(default_factory=dict)
    abilities: dict[str, AbilitySpec]
    schedule: Schedule
    steps: dict[str, StepSpec] = Field(default_factory=dict)
    procedures: dict[str, Procedure] = Field(default_factory=dict)
    on_begin: Effects = Field(default_factory=list)
    on_ended: Effects = Field(default_factory=list)
    on_skip: Effects = Field(default_factory=list)
    on_departure: Effects = Field(default_factory=list)
    #: status -> effects run right after an effect of the file sets or clears it
    on_status: dict[str, Effects] = Field(default_factory=dict)
    victory: list[Victory]
    notices: dict[str, list[NoticeText]] = Field(default_factory=dict)
    view: View = Field(default_factory=View)
    #: the public status post (C16.1); without it the pages show a plain roster
    status_post: StatusPost | None = None
    presets: dict[str, Preset] = Field(default_factory=dict)
    deal: Deal | None = None
    #: the variant's numbered rules, each with the keys that implement it (optional)
    rules: dict[str, RuleEntry] = Field(default_factory=dict)
    #: how the votes are written on the forum (optional; without it a game's forum
    #: thread is not counted)
    forum_votes: ForumVotes | None = None
