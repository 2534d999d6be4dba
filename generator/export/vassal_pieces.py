"""VASSAL piece definitions: the trait strings of a counter and of a card, as VASSAL 3.7 writes them.

A piece definition is its traits, outermost first, joined by tabs; its state likewise. Each trait is
a list of fields joined by VASSAL's SequenceEncoder (`seq`: the delimiter inside a field escaped
with a backslash, a field starting with a backslash quoted). The traits used:

- a counter with a back: Embellishment (`emb2`) with two layers, front and back, always active,
  looping, and one menu command "Flip" (Ctrl+F) that steps to the next layer: front to back and
  back to front. VASSAL lists a layer command in the right-click menu only when it has a text and
  a key, so both are given;
- a card: Obscurable (`obs`), the back shown while the card is face down. Its mask name (what a
  player the card is hidden from sees, in menus and in the chat's move reports) is the deck's
  name, never the card's own; its state is "null;" (masked by nobody) as VASSAL writes it, and
  the draw pile masks it;
- BasicPiece (`piece`): the front image and the name. Names are one line: VASSAL's server protocol
  is line based, so a printed line break becomes a space.
"""
from __future__ import annotations

from dataclasses import dataclass, field

FLIP_TEXT = "Flip"         # the menu command that turns a counter or a card over
FLIP_KEY = "70,130"        # Ctrl+F: key code 70 (F), modifiers 130 (Ctrl, as VASSAL stores it)
FLIP_KEY_TEXT = "Ctrl+F"   # the same, as the module's README names it
PEEK_TEXT = "Peek"
CARD_MASK_FALLBACK = ("Card", "Face-down card")
LAYER_NAME = "Side"


def seq(fields: list[str], delim: str) -> str:
    """VASSAL's SequenceEncoder: `fields` joined by `delim`, each escaped as append(String) does."""
    out = []
    for f in fields:
        body = f.replace(delim, "\\" + delim)
        if f.startswith("\\") or (f.startswith("'") and f.endswith("'")):
            body = f"'{body}'"
        out.append(body)
    return delim.join(out)


def clean_name(s: str) -> str:
    """A piece name VASSAL keeps whole: one line, without the separators of its encodings. A printed
    line break is layout: it joins the lines with a space, or with nothing next to a CJK character
    (lines "Gandalf", "the White" make "Gandalf the White"; "白の", "ガンダルフ" make "白のガンダルフ")."""
    lines = [line.strip() for line in s.splitlines() if line.strip()]
    text = lines[0] if lines else ""
    for line in lines[1:]:
        text += line if _cjk(text[-1]) or _cjk(line[0]) else " " + line
    text = "".join(" " if ch in ";/\t\\,|" else ch for ch in text)
    return " ".join(text.split()) or "piece"


def _cjk(ch: str) -> bool:
    return "\u2e80" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" or "\uff00" <= ch <= "\uffef"


def mask_name(deck_name: str, card_name: str) -> str:
    """What a face-down card is called: its deck's name, or 'Card' when that is the card's own name."""
    for candidate in (clean_name(deck_name), *CARD_MASK_FALLBACK):
        if candidate != card_name:
            return candidate
    return "?"


def _basic(image: str, name: str) -> str:
    return "piece;" + seq(["", "", image, name], ";")


def _flip_layers(front: str, back: str) -> str:
    """Embellishment fields in the order of VASSAL's Embellishment.mySetType."""
    return "emb2;" + seq([
        "", "128", "A",                      # activate command, modifiers, key (unused: always active)
        FLIP_TEXT, "128", "",                # up command (its key is the named stroke below)
        "", "128", "",                       # down command
        "", "", "1",                         # reset command, key, level
        "false", "0", "0",                   # draw underneath when selected, x and y offset
        seq([front, back], ","), ",",        # layer images, layer names
        "true", LAYER_NAME,                  # loop through the layers, layer name
        "", "",                              # random layer key, text
        "false", "", "1",                    # follow a property, its name, first level value
        "1", "true",                         # version, always active
        "", FLIP_KEY, "",                    # activate, increase, decrease key strokes
        FLIP_TEXT, "1.0", "", "true",        # description, scale, only-when property and state
    ], ";")


def _mask(back: str, mask: str) -> str:
    """Obscurable fields in the order of VASSAL's Obscurable.mySetType."""
    return "obs;" + seq([FLIP_KEY, back, FLIP_TEXT, f"G{back}", mask, "player:", PEEK_TEXT, FLIP_TEXT,
                         "false", "", ""], ";")


@dataclass
class PieceDef:
    """One distinct piece: its slot id in the module, name, images and, for a card, its mask name."""
    gpid: int
    item_id: str
    name: str
    front: str
    back: str | None
    size_px: tuple[int, int]
    back_faces: frozenset[str] = frozenset()  # setup `face:` names that mean "back side up"
    mask: str = "Card"

    def type_string(self, card: bool = False) -> str:
        basic = _basic(self.front, self.name)
        if card and self.back:
            return seq([_mask(self.back, self.mask), basic], "\t")
        if self.back:
            return seq([_flip_layers(self.front, self.back), basic], "\t")
        return basic

    def state_string(self, where: str = "null", x: int = 0, y: int = 0, card: bool = False,
                     gpid: int | None = None, layer: int = 1) -> str:
        basic = seq([where, str(x), str(y), str(gpid or self.gpid), "0"], ";")
        if card and self.back:
            return seq(["null;", basic], "\t")   # masked by nobody; the draw pile turns cards face down
        return seq([str(layer), basic], "\t") if self.back else basic


@dataclass
class Module:
    pieces: dict[tuple[str, str], PieceDef] = field(default_factory=dict)  # (component, item) -> def
    images: dict[str, bytes] = field(default_factory=dict)
    next_gpid: int = 1

    def new_gpid(self) -> int:
        self.next_gpid += 1
        return self.next_gpid - 1

    def add(self, comp: str, item_id: str, name: str, images: tuple[str, bytes, bytes | None],
            size_px: tuple[int, int], back_faces: frozenset[str] = frozenset(), mask: str = "Card") -> PieceDef:
        stem, front, back = images
        self.images[f"images/{stem}.png"] = front
        if back is not None:
            self.images[f"images/{stem}-back.png"] = back
        d = PieceDef(self.new_gpid(), item_id, clean_name(name), f"{stem}.png",
                     f"{stem}-back.png" if back is not None else None, size_px, back_faces, mask)
        self.pieces[(comp, item_id)] = d
        return d
