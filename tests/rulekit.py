"""Rule files a GM might upload, made from the shipped Changelings file (rules C1–C16 as
data): the same rules under an id of the GM's own, and broken ones."""

from __future__ import annotations

from pathlib import Path

from nightfall.rulefile.ruleset import SHIPPED

#: the shipped file's bytes (id ``changelings``)
SHIPPED_CHANGELINGS = SHIPPED["changelings"].read_bytes()
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")


def house_rules(ruleset_id: str = "house-ponies", note: str = "") -> bytes:
    """The Changelings rules under ``ruleset_id``; ``note`` (a YAML comment) makes another
    file, with another hash, of the same rules."""
    data = SHIPPED_CHANGELINGS.replace(b"id: changelings\n", f"id: {ruleset_id}\n".encode(), 1)
    data += f"\n# {note}\n".encode() if note else b""
    assert data != SHIPPED_CHANGELINGS
    return data


def broken_rules(ruleset_id: str = "broken-ponies") -> tuple[bytes, int]:
    """A file whose role ``pony`` names a faction that does not exist, and which would
    title a new role ``zz_stranger`` "Perfect Stranger": (bytes, line of the bad key)."""
    lines = house_rules(ruleset_id).decode().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("roles:"))
    lines.insert(start + 1, '  zz_stranger: {faction: ponies, rule: C4, title: "Perfect '
                            'Stranger", text: role_pony}\n')
    bad = next(i for i in range(start, len(lines)) if lines[i].startswith("  pony:"))
    assert "faction: ponies" in lines[bad]
    lines[bad] = lines[bad].replace("faction: ponies", "faction: poneys", 1)
    return "".join(lines).encode(), bad + 1


def with_guest(ruleset_id: str, title: str) -> bytes:
    """The Changelings rules under ``ruleset_id`` for English only, with one more role,
    ``zz_guest`` (a pony), titled ``title``: no built-in rule set has that role."""
    lines = house_rules(ruleset_id).decode().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("roles:"))
    lines.insert(start + 1, f'  zz_guest: {{faction: ponies, rule: C4, title: "{title}", '
                            f'text: role_pony}}\n')
    text = "".join(lines)
    assert "languages: [de, en]" in text
    return text.replace("languages: [de, en]", "languages: [en]", 1).encode()


#: the id of :func:`house_classic_file`: no process knows it unless it was given the file
HOUSE_CLASSIC_ID = "werwolf-house"


def house_classic_file(directory: Path) -> Path:
    """The shipped classic Werwolf file under another id, written to ``directory``: a GM's
    own file, as far as a simulator worker knows (it is not a shipped one)."""
    path = directory / "house.yaml"
    text = SHIPPED["werwolf-classic"].read_text(encoding="utf-8")
    path.write_text(text.replace("id: werwolf-classic", f"id: {HOUSE_CLASSIC_ID}", 1),
                    encoding="utf-8")
    return path
