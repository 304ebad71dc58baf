"""The anotador: the score sheet for real tables, as static files that work offline on a phone.

The web app lives in ``carioca/web/anotador/`` (plain ES modules and web components, no build
step). Everything it knows about the rules comes from here, from the engine's own presets, so
nothing is typed twice: :func:`presets_json` turns :data:`~carioca.rules.PRESETS` into the
``presets.json`` the page reads (rounds, contracts with their words, card values, scoring,
tie-break). :func:`export_static` writes the whole app into a folder that any static web server
can serve (``carioca anotador --out DIR``); ``carioca serve`` serves the package folder at
``/anotador``. The rules in words (:func:`carioca.describe.describe_rules`, every preset in
every language) go into ``rules.json`` the same way (:func:`rules_json`), already cut into
headings, paragraphs, lists and tables (:func:`rules_blocks`), so the page only builds elements
from them. The app's icons are drawn here too, as SVG and as PNG (standard library only).

>>> data = presets_json()
>>> [p["name"] for p in data["presets"]][:3]
['chile', 'chile-10', 'dos-libres']
>>> chile = data["presets"][0]
>>> [r["contract"] for r in chile["rounds"]][-2:], chile["values"]["A"], chile["values"]["JK"]
(['3E', '4T'], 20, 50)
>>> data["contracts"]["1T+1E"]["words"]["es"]
'un trío y una escala de 4'
>>> data["contracts"]["2E3"]["melds"]
[{'kind': 'escala', 'len': 3, 'count': 2}]
>>> sorted(chile["note"])
['de', 'en', 'es', 'sv']
>>> words = rules_json()["rules"]["chile"]["de"]
>>> words[0], words[1]["type"]
({'type': 'h1', 'text': 'Carioca: chile'}, 'p')
>>> next(b for b in words if b["type"] == "table")["rows"][5][:2]
['6', 'ein Trío und zwei 4er-Escalas']
"""

from __future__ import annotations

import json
import math
import re
import shutil
import struct
import zlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any, Final

import typer

from .cards import RANKS
from .describe import LANGS, describe_preset_list, describe_rules
from .rules import PRESETS, Contract, RoundDef, RuleSet

__all__ = [
    "FORMAT",
    "RULES_FORMAT",
    "STATIC_DIR",
    "EXTRA_CONTRACTS",
    "presets_json",
    "presets_text",
    "rules_blocks",
    "rules_json",
    "rules_text",
    "GENERATED",
    "write_presets",
    "icon_svg",
    "icon_png",
    "icon_files",
    "export_static",
    "refresh_package",
    "register",
]

FORMAT: Final = "carioca-anotador-presets/1"
"""The ``format`` field of ``presets.json``."""

RULES_FORMAT: Final = "carioca-anotador-rules/1"
"""The ``format`` field of ``rules.json``."""

STATIC_DIR: Final = Path(__file__).resolve().parent / "web" / "anotador"
"""The app's files in the package (served by ``carioca serve`` at ``/anotador``)."""

EXTRA_CONTRACTS: Final = ("EC",)
"""Contracts no preset plays that a custom list may use: the escala de colores (Spanish
source: "otras que agregan la escala de colores")."""

CARD_KEYS: Final = (*RANKS, "JK")
"""The card buttons of the hand keypad, in order: A, 2 ... 10, J, Q, K and the joker."""


# --------------------------------------------------------------------------- presets.json

def _contract_entry(contract: Contract) -> dict[str, Any]:
    melds: list[dict[str, Any]] = []
    for spec in contract.melds:
        if melds and melds[-1]["kind"] == spec.kind and melds[-1]["len"] == spec.min_len:
            melds[-1]["count"] += 1
        else:
            melds.append({"kind": spec.kind, "len": spec.min_len, "count": 1})
    return {
        "melds": melds,
        "min_cards": contract.min_cards,
        "words": {"es": contract.words("es"), "en": contract.words("en")},
    }


def _round_entry(rnd: RoundDef) -> dict[str, Any]:
    return {
        "contract": str(rnd),
        "hand_size": rnd.hand_size,
        "go_out_at_once": rnd.go_out_at_once,
    }


def _preset_entry(name: str, rules: RuleSet, notes: dict[str, dict[str, str]]) -> dict[str, Any]:
    values = dict(rules.values)
    return {
        "name": name,
        "note": {lang: notes[lang][name] for lang in LANGS},
        "min_players": rules.min_players,
        "max_players": rules.max_players,
        "rounds": [_round_entry(r) for r in rules.rounds],
        "values": {key: values[key] for key in CARD_KEYS},
        "wild_two": "twos" in rules.wilds,
        "scoring": rules.scoring,
        "tie_break": rules.tie_break,
        "extra_rounds_cap": rules.extra_rounds_cap,
        "out_score": rules.out_score,
        "instant_out_score": rules.out_points(instant=True),
        "steals": rules.buying == "penalty_points",
        "steal_points": rules.steal_points,
    }


def presets_json() -> dict[str, Any]:
    """Everything the anotador needs to know of every preset, from the engine's own rules.

    ``presets`` keeps the order of :data:`~carioca.rules.PRESETS`; ``contracts`` has every
    contract any preset plays (plus :data:`EXTRA_CONTRACTS`), in the order first seen, with its
    melds (``kind``, ``len``, ``count``; the page writes the German and Swedish words from
    them) and its words in Spanish and English. A round's ``contract`` is the engine's notation
    (``1T+2E``; alternatives joined with ``|``). A preset's ``note`` is its one line in each of
    :data:`~carioca.describe.LANGS`.
    """
    notes = {lang: dict(describe_preset_list(lang)) for lang in LANGS}
    contracts: dict[str, dict[str, Any]] = {}
    for rules in PRESETS.values():
        for rnd in rules.rounds:
            for contract in rnd.contracts:
                contracts.setdefault(str(contract), _contract_entry(contract))
    for text in EXTRA_CONTRACTS:
        contract = Contract.parse(text)
        contracts.setdefault(str(contract), _contract_entry(contract))
    return {
        "format": FORMAT,
        "cards": list(CARD_KEYS),
        "default_preset": "chile",
        "presets": [_preset_entry(name, rules, notes) for name, rules in PRESETS.items()],
        "contracts": contracts,
    }


def presets_text() -> str:
    """``presets.json`` as written to disk (stable, so the committed copy can be checked)."""
    return json.dumps(presets_json(), ensure_ascii=False, indent=1) + "\n"


# --------------------------------------------------------------------------- rules.json
#
# describe_rules writes a small markdown: "#"/"##" headings, paragraphs, "- " and "1. " lists,
# and "|" tables with a "|---|" line. It is cut into blocks here, once, so that the page builds
# its elements from plain strings (never markup) and needs no parser of its own.

_HEADING: Final = re.compile(r"^(#{1,3}) (.*)$")
_BULLET: Final = re.compile(r"^- (.*)$")
_NUMBERED: Final = re.compile(r"^(\d+)\. (.*)$")
_RULE_LINE: Final = re.compile(r"^\|[\s|:-]+\|$")


def _line_kind(line: str) -> str:
    """What a line of the rules starts: blank, h (a heading), table, ul, ol or p."""
    if not line.strip():
        return "blank"
    if _HEADING.match(line):
        return "h"
    if line.startswith("|"):
        return "table"
    if _BULLET.match(line):
        return "ul"
    return "ol" if _NUMBERED.match(line) else "p"


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _block(kind: str, lines: list[str]) -> dict[str, Any]:
    """One block from a run of lines of one kind (a heading is a run of one)."""
    if kind == "h":
        hashes, text = _HEADING.findall(lines[0])[0]
        return {"type": f"h{len(hashes)}", "text": text.strip()}
    if kind == "ul":
        return {"type": "ul", "items": [_BULLET.findall(line)[0] for line in lines]}
    if kind == "ol":
        numbered = [_NUMBERED.findall(line)[0] for line in lines]
        # The page numbers a list from 1 by itself: one counted otherwise would lose its numbers.
        if [int(n) for n, _ in numbered] != list(range(1, len(lines) + 1)):
            raise ValueError(f"a numbered list that does not count 1, 2, 3...: {lines[0]!r}")
        return {"type": "ol", "items": [item for _, item in numbered]}
    if kind == "table":
        if len(lines) < 2 or not _RULE_LINE.match(lines[1].strip()):
            raise ValueError(f"a table without its |---| line: {lines[0]!r}")
        head, rows = _cells(lines[0]), [_cells(line) for line in lines[2:]]
        if any(len(row) != len(head) for row in rows):
            raise ValueError(f"a table row with more or fewer cells than its head: {lines[0]!r}")
        return {"type": "table", "head": head, "rows": rows}
    return {"type": "p", "text": " ".join(line.strip() for line in lines)}


def rules_blocks(text: str) -> list[dict[str, Any]]:
    """The blocks of the rules in words (the markdown that
    :func:`~carioca.describe.describe_rules` writes), in order: ``{"type": "h1"|"h2"|"h3"|"p",
    "text"}``, ``{"type": "ul"|"ol", "items"}`` and ``{"type": "table", "head", "rows"}``. The
    lines of a paragraph are joined with a space; a table or numbered list that would lose
    words is refused.

    >>> text = "\\n".join(["# T", "", "Some words", "go on.", "- a", "- b", "1. x", "2. y", "",
    ...                      "| A | B |", "|---|---|", "| 1 | 2 |"])
    >>> rules_blocks(text)  # doctest: +NORMALIZE_WHITESPACE
    [{'type': 'h1', 'text': 'T'}, {'type': 'p', 'text': 'Some words go on.'},
     {'type': 'ul', 'items': ['a', 'b']}, {'type': 'ol', 'items': ['x', 'y']},
     {'type': 'table', 'head': ['A', 'B'], 'rows': [['1', '2']]}]
    >>> rules_blocks("3. three")
    Traceback (most recent call last):
    ...
    ValueError: a numbered list that does not count 1, 2, 3...: '3. three'
    """
    blocks: list[dict[str, Any]] = []
    lines = [line.rstrip() for line in text.splitlines()]
    i = 0
    while i < len(lines):
        kind = _line_kind(lines[i])
        end = i + 1
        if kind != "h":
            while end < len(lines) and _line_kind(lines[end]) == kind:
                end += 1
        if kind != "blank":
            blocks.append(_block(kind, lines[i:end]))
        i = end
    return blocks


def rules_json() -> dict[str, Any]:
    """The rules of every preset in words, in every language, for the anotador's rules view.

    ``rules`` maps each preset (in the order of :data:`~carioca.rules.PRESETS`) to each of
    ``langs`` (:data:`~carioca.describe.LANGS`) to the :func:`rules_blocks` of
    :func:`~carioca.describe.describe_rules` for it. The page loads it only when the rules are
    opened; the service worker keeps it for offline use.
    """
    return {
        "format": RULES_FORMAT,
        "langs": list(LANGS),
        "rules": {
            name: {lang: rules_blocks(describe_rules(rules, lang)) for lang in LANGS}
            for name, rules in PRESETS.items()
        },
    }


def rules_text() -> str:
    """``rules.json`` as written to disk (stable, so the committed copy can be checked)."""
    return json.dumps(rules_json(), ensure_ascii=False, indent=1) + "\n"


GENERATED: Final[dict[str, Callable[[], str]]] = {
    "presets.json": presets_text,
    "rules.json": rules_text,
}
"""The app's files made from the engine (name in the app folder: its text), never copied."""


def write_presets(folder: Path | str) -> list[Path]:
    """Write the files made from the engine, ``presets.json`` and ``rules.json``
    (:data:`GENERATED`), into ``folder`` (the package copy or an exported bundle)."""
    written: list[Path] = []
    for name, text in GENERATED.items():
        path = Path(folder) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text(), encoding="utf-8")
        written.append(path)
    return written


# --------------------------------------------------------------------------- icons
#
# One drawing, written as SVG and rasterised to PNG with signed distances (antialiased, no
# libraries): a white card on green felt, with a red diamond and the ruled rows of a score sheet.

_Shape = tuple[str, tuple[float, ...], tuple[int, int, int]]

_FELT: Final = (11, 94, 62)
_CARD: Final = (255, 255, 255)
_RED: Final = (215, 38, 61)
_INK: Final = (31, 41, 55)

_DRAWING: Final[tuple[_Shape, ...]] = (
    # kind, geometry in a 512 x 512 box, colour
    ("rect", (140, 84, 372, 428, 30), _CARD),           # x0, y0, x1, y1, corner radius
    ("rhombus", (196, 148, 30, 42), _RED),              # centre x, y, half width, half height
    ("rect", (252, 124, 336, 146, 11), _INK),
    ("rect", (252, 164, 312, 184, 10), _RED),
    ("rect", (176, 232, 268, 254, 11), _INK),
    ("rect", (292, 232, 336, 254, 11), _INK),
    ("rect", (176, 288, 268, 310, 11), _INK),
    ("rect", (292, 288, 336, 310, 11), _INK),
    ("rect", (176, 344, 268, 366, 11), _INK),
    ("rect", (292, 344, 336, 366, 11), _INK),
)


def _hex(color: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*color)


def _num(x: float) -> str:
    return f"{x:g}"


def icon_svg(maskable: bool = False) -> str:
    """The icon as SVG. ``maskable``: full-bleed felt, the drawing inside the safe circle."""
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">']
    if maskable:
        parts.append(f'<rect width="512" height="512" fill="{_hex(_FELT)}"/>')
        parts.append('<g transform="translate(51.2 51.2) scale(0.8)">')
    else:
        parts.append(f'<rect width="512" height="512" rx="96" fill="{_hex(_FELT)}"/>')
        parts.append("<g>")
    for kind, g, color in _DRAWING:
        if kind == "rect":
            x0, y0, x1, y1, r = g
            parts.append(
                f'<rect x="{_num(x0)}" y="{_num(y0)}" width="{_num(x1 - x0)}" '
                f'height="{_num(y1 - y0)}" rx="{_num(r)}" fill="{_hex(color)}"/>'
            )
        else:
            cx, cy, hw, hh = g
            points = f"{_num(cx)},{_num(cy - hh)} {_num(cx + hw)},{_num(cy)} " \
                     f"{_num(cx)},{_num(cy + hh)} {_num(cx - hw)},{_num(cy)}"
            parts.append(f'<polygon points="{points}" fill="{_hex(color)}"/>')
    parts.append("</g></svg>")
    return "\n".join(parts) + "\n"


def _sd_round_rect(x: float, y: float, g: tuple[float, ...]) -> float:
    x0, y0, x1, y1, r = g
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    qx = abs(x - cx) - ((x1 - x0) / 2 - r)
    qy = abs(y - cy) - ((y1 - y0) / 2 - r)
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - r


def _sd_rhombus(x: float, y: float, g: tuple[float, ...]) -> float:
    cx, cy, bx, by = g
    px, py = abs(x - cx), abs(y - cy)
    h = ((bx - 2 * px) * bx - (by - 2 * py) * by) / (bx * bx + by * by)
    h = max(-1.0, min(1.0, h))
    d = math.hypot(px - 0.5 * bx * (1 - h), py - 0.5 * by * (1 + h))
    side = px * by + py * bx - bx * by
    return d if side > 0 else -d


def _sd(kind: str, x: float, y: float, g: tuple[float, ...]) -> float:
    return _sd_round_rect(x, y, g) if kind == "rect" else _sd_rhombus(x, y, g)


def _bbox(kind: str, g: tuple[float, ...]) -> tuple[float, float, float, float]:
    if kind == "rect":
        return g[0], g[1], g[2], g[3]
    return g[0] - g[2], g[1] - g[3], g[0] + g[2], g[1] + g[3]


def icon_png(size: int, maskable: bool = False) -> bytes:
    """The icon as an RGBA PNG of ``size`` x ``size`` pixels (the same drawing as the SVG)."""
    px = [[0.0, 0.0, 0.0, 0.0] for _ in range(size * size)]  # premultiplied r, g, b, alpha
    unit = size / 512

    def paint(kind: str, g: tuple[float, ...], color: tuple[int, int, int],
              to_px: Callable[[float], float]) -> None:
        x0, y0, x1, y1 = (to_px(v) for v in _bbox(kind, g))
        scale = to_px(1) - to_px(0)
        for j in range(max(0, int(y0) - 1), min(size, int(math.ceil(y1)) + 1)):
            for i in range(max(0, int(x0) - 1), min(size, int(math.ceil(x1)) + 1)):
                # distance in pixels from the pixel's centre, mapped back to drawing units
                d = _sd(kind, (i + 0.5 - to_px(0)) / scale, (j + 0.5 - to_px(0)) / scale, g) * scale
                a = 0.5 - d
                if a <= 0:
                    continue
                a = min(a, 1.0)
                p = px[j * size + i]
                keep = 1 - a
                p[0] = color[0] * a + p[0] * keep
                p[1] = color[1] * a + p[1] * keep
                p[2] = color[2] * a + p[2] * keep
                p[3] = a + p[3] * keep

    def whole(v: float) -> float:
        return v * unit

    if maskable:
        for p in px:
            p[:] = [float(_FELT[0]), float(_FELT[1]), float(_FELT[2]), 1.0]

        def inner(v: float) -> float:
            return (51.2 + v * 0.8) * unit

        to_px = inner
    else:
        paint("rect", (0, 0, 512, 512, 96), _FELT, whole)
        to_px = whole
    for kind, g, color in _DRAWING:
        paint(kind, g, color, to_px)
    raw = bytearray()
    for j in range(size):
        raw.append(0)
        for p in px[j * size:(j + 1) * size]:
            a = p[3]
            if a <= 0:
                raw.extend(b"\0\0\0\0")
                continue
            raw.extend(
                (round(p[0] / a), round(p[1] / a), round(p[2] / a), round(a * 255))
            )
    return _png(size, size, bytes(raw))


def _png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def icon_files() -> Iterator[tuple[str, bytes]]:
    """(path inside the app folder, contents) of every icon the manifest and page name."""
    yield "icons/icon.svg", icon_svg().encode()
    yield "icons/icon-maskable.svg", icon_svg(maskable=True).encode()
    yield "icons/icon-192.png", icon_png(192)
    yield "icons/icon-512.png", icon_png(512)
    yield "icons/icon-maskable-512.png", icon_png(512, maskable=True)
    yield "icons/apple-touch-icon.png", icon_png(180, maskable=True)


# --------------------------------------------------------------------------- the bundle

def _app_files(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if path.is_dir() or any(part.startswith((".", "__")) for part in rel.parts):
            continue
        if path.suffix in (".py", ".pyc"):
            continue
        yield path


def export_static(folder: Path | str) -> list[Path]:
    """Write the whole anotador into ``folder``: the page, its modules, styles, manifest, service
    worker and icons, and a ``presets.json`` and ``rules.json`` made now from the engine. Any
    static web server can serve the folder (the service worker needs ``https://`` or
    ``localhost``).

    Returns the files written, the ones made from the engine (:data:`GENERATED`) last.
    """
    out = Path(folder)
    if out.resolve() == STATIC_DIR:
        return refresh_package()
    sources = [src for src in _app_files(STATIC_DIR)
               if src.relative_to(STATIC_DIR).as_posix() not in GENERATED]
    _check_nothing_lost(out, [src.relative_to(STATIC_DIR) for src in sources])
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for src in sources:
        rel = src.relative_to(STATIC_DIR)
        dest = out / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
        written.append(dest)
    written.extend(write_presets(out))
    return written


class FolderTaken(FileExistsError):
    """The folder holds files of its own that the anotador would write over."""


def _check_nothing_lost(out: Path, files: Sequence[Path]) -> None:
    """Refuse a folder that holds a file of the same name as one of the app's, unless the
    folder is an anotador written before (its service worker says so): that one is updated."""
    worker = out / "sw.js"
    if worker.is_file() and "carioca-anotador-" in worker.read_text("utf-8", errors="replace"):
        return
    clashes = [rel.as_posix() for rel in [*files, *map(Path, GENERATED)] if (out / rel).exists()]
    if clashes:
        shown = ", ".join(clashes[:3]) + (f" and {len(clashes) - 3} more" if len(clashes) > 3
                                          else "")
        raise FolderTaken(f"{out} already holds {shown}, which the anotador would write over: "
                          "choose an empty folder (or one the anotador was written to before)")


def refresh_package() -> list[Path]:
    """Rewrite the generated files of the package's own copy: ``presets.json``, ``rules.json``
    and the icons (``python -m carioca.anotador`` after changing a preset, the rules' words or
    the drawing)."""
    written: list[Path] = []
    for rel, data in icon_files():
        path = STATIC_DIR / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(path)
    written.extend(write_presets(STATIC_DIR))
    return written


# --------------------------------------------------------------------------- command line

def register(app: typer.Typer) -> None:
    """Add ``carioca anotador --out DIR`` to the command line ``app``."""

    @app.command("anotador")
    def anotador_command(
        where: Annotated[str, typer.Option(
            "--out", help="The folder to write the app into (created if needed).")],
    ) -> None:
        """Write the anotador (the offline score sheet) as static files into a folder."""
        out = Path(where)
        if not where.strip():  # (as a Path, "" would be "." unsaid)
            typer.echo("carioca: --out needs the name of a folder for the anotador's files "
                       "(a new one, say: --out anotador)", err=True)
            raise typer.Exit(2)
        try:
            written = export_static(out)
        except FolderTaken as exc:
            typer.echo(f"carioca: {exc}", err=True)
            raise typer.Exit(2) from None
        except OSError as exc:
            typer.echo(f"carioca: cannot write {out}: {exc.strerror or exc}", err=True)
            raise typer.Exit(2) from None
        typer.echo(
            f"wrote {len(written)} files to {out}; serve the folder over http(s) and open "
            f"index.html (it works offline after the first visit)"
        )


if __name__ == "__main__":  # pragma: no cover
    for written_path in refresh_package():
        print(written_path)
