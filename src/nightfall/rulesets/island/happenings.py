"""The fourteen daily events (I5): ids, display names and one-line descriptions."""

from __future__ import annotations

from nightfall.engine import N_
from nightfall.engine.text import TermNames

BUNKER = "bunker"
FEAR = "fear"
RAGE = "rage"
MAGNETIC_STORM = "magnetic_storm"
TSUNAMI = "tsunami"
EXCHANGE = "exchange"
MYSTIC_LIGHT = "mystic_light"
PICK_ME = "pick_me"
SOLAR_ECLIPSE = "solar_eclipse"
LUNAR_ECLIPSE = "lunar_eclipse"
FULL_MOON = "full_moon"
FOGGY_NIGHT = "foggy_night"
SPIRIT = "spirit"
PALMS_BLOOM = "palms_bloom"

EVENT_IDS = (
    BUNKER, FEAR, RAGE, MAGNETIC_STORM, TSUNAMI, EXCHANGE, MYSTIC_LIGHT, PICK_ME,
    SOLAR_ECLIPSE, LUNAR_ECLIPSE, FULL_MOON, FOGGY_NIGHT, SPIRIT, PALMS_BLOOM,
)
#: I5: everyone has two votes today (rage, foggy night)
TWO_VOTES = frozenset({RAGE, FOGGY_NIGHT})

TermNames.register(
    "event",
    {
        BUNKER: N_("Bunker"),
        FEAR: N_("Fear"),
        RAGE: N_("Rage"),
        MAGNETIC_STORM: N_("Magnetic Storm"),
        TSUNAMI: N_("Tsunami"),
        EXCHANGE: N_("Exchange"),
        MYSTIC_LIGHT: N_("Mystic Light"),
        PICK_ME: N_("Pick Me!"),
        SOLAR_ECLIPSE: N_("Solar Eclipse"),
        LUNAR_ECLIPSE: N_("Lunar Eclipse"),
        FULL_MOON: N_("Full Moon"),
        FOGGY_NIGHT: N_("Foggy Night"),
        SPIRIT: N_("Spirit Call"),
        PALMS_BLOOM: N_("Palms Bloom"),
    },
)

#: I5: what each event means, for the newspaper and the day's announcement
DESCRIPTIONS = {
    BUNKER: N_("Players may apply until {until} to swap their item for a random unused one."),
    FEAR: N_("The vote elects a leader who alone names the one to be lynched. Items that "
             "change votes do not work; a sheep skin on the named player saves him."),
    RAGE: N_("Everyone has two votes; the two players with the most votes are lynched."),
    MAGNETIC_STORM: N_("No item works until tomorrow morning."),
    TSUNAMI: N_("All items were collected and dealt again at random."),
    EXCHANGE: N_("Two players who both ask for it until {until} swap their items; used items "
                 "are recharged by the swap."),
    MYSTIC_LIGHT: N_("Owners of used items may recharge them until {until}."),
    PICK_ME: N_("{name} is immune to the lynch today and may name one partner until {until} "
                "who is immune too."),
    SOLAR_ECLIPSE: N_("The roles of today's lynched and of last night's dead stay hidden until "
                      "the game ends."),
    LUNAR_ECLIPSE: N_("The werewolves eat nobody tonight."),
    FULL_MOON: N_("The werewolves may eat two players tonight."),
    FOGGY_NIGHT: N_("Everyone has two votes; whoever acts tonight must give one of his votes "
                    "to his night target."),
    SPIRIT: N_("Ask the Island Spirit one yes/no question until {until}; you may choose one "
               "asker among you. A question that would give a role away is refused."),
    PALMS_BLOOM: N_("The words я, ты, он, она, они, мы, вы and their forms, and да, не, нет "
                    "are forbidden in the thread today; a violator loses his vote."),
}

TermNames.register(  # what chance decides (``ctx.draw``), for the log
    "draw",
    {
        "seat": N_("seating order"),  # I3.1
        "item": N_("item for"),  # I4
        "event": N_("the day's event"),  # I5
        "tsunami": N_("tsunami, new item for"),  # I5
        "bunker": N_("bunker, new item for"),  # I5
        "pick_me": N_("pick me!"),  # I5
        "lynch_tie": N_("tie at the lynching"),  # I6.4
        "bomb_tie": N_("bomb, tie"),  # I4
        "fear_leader": N_("fear, tie"),  # I5
    },
)
