"""Friends at one table, each in a browser of their own: Ana hosts, Beto and Caro join by
the link she shares. Three Chromium contexts (three people, each with their own storage) play
through the pages against the server of tests/test_web_pages.py, on one round of `chile`.

What each page shows and what its socket receives is checked: its own hand and only the
others' card counts; whose turn it is, and a move by one on the other two pages; a buy that
two players want (the one to draw has first claim); an undo; a tab closed and opened again by
the link, a bot standing in meanwhile; and the scores of the round's end, alike on every page.

The deals are the engine's own, from a game seed chosen here (the server draws it at the
start: the test hands it one that deals what the test needs)."""

from __future__ import annotations

import json
import re
import secrets
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from test_web_pages import (  # noqa: E402  (the fixtures are used by their names)
    CHROMIUM,
    DESKTOP,
    PHONE,
    _call,
    _card_in_hand,
    _discard_choice,
    _page,
    _state,
    base_url,
    browser,
)

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")
__all__ = ["base_url", "browser"]  # fixtures, shared with test_web_pages

NAMES = ("Ana", "Beto", "Caro")
CARD = re.compile(r"^(?:10|[2-9AJQK])[SHDC]$|^JK$")
SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


# --------------------------------------------------------------------------- a seeded deal

class _Seeded:
    """The server's ``secrets`` with the game seed fixed: the deal is the one chosen here."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def randbits(self, k: int) -> int:
        return self.seed

    def __getattr__(self, name: str) -> Any:
        return getattr(secrets, name)


def _seed_where_beto_may_bajarse(options: dict[str, Any]) -> int:
    """A game seed whose first round lets Beto (who plays first) bajarse once he has drawn
    from the mazo."""
    from carioca.actions import Bajar, Draw
    from carioca.engine import Game
    from carioca.rules import RuleSet

    rules = RuleSet.preset("chile", **options)
    for seed in range(1, 500):
        game = Game.new(rules, list(NAMES), seed=seed)
        assert game.seat_to_act == 1  # round 1: the seat after the dealer (Ana) starts
        game.apply(Draw(1, "mazo"))
        if any(isinstance(a, Bajar) for a in game.legal_actions(1)):
            return seed
    raise AssertionError("no seed deals Beto a contract")


def _seed_the_server(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    from carioca.server import tables

    monkeypatch.setattr(tables, "secrets", _Seeded(seed))


# --------------------------------------------------------------------------- people and pages

def _watch(page: Any) -> Any:
    """Keep every frame the page's sockets receive (``page.got``) and send (``page.sent``)."""
    page.got = []
    page.sent = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda data: page.got.append(
            data if isinstance(data, str) else data.decode()))
        ws.on("framesent", lambda data: page.sent.append(
            data if isinstance(data, str) else data.decode()))

    page.on("websocket", on_socket)
    return page


def _person(browser: Any, size: dict[str, int] = DESKTOP, locale: str = "es-CL") -> Any:
    """A browser of one's own (a context: its own storage and cookies)."""
    return _watch(_page(browser, size, locale))


def _again(old: Any) -> Any:
    """A new tab in the same browser as ``old`` (whose tab was closed)."""
    page = old.context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    return _watch(page)


def _join_by_link(page: Any, link: str, name: str) -> None:
    page.goto(link)
    page.wait_for_selector("#join")
    page.fill("#join-name", name)
    page.click("#join")
    page.wait_for_selector(".seat.me")


def _beto_and_caro_join(browser: Any, link: str) -> tuple[Any, Any]:
    """Beto on a phone in Spanish and Caro on a desktop in English take seats by the link."""
    beto = _person(browser, PHONE, "es-CL")
    caro = _person(browser, DESKTOP, "en-US")
    _join_by_link(beto, link, "Beto")
    _join_by_link(caro, link, "Caro")
    return beto, caro


def _start_on_a_known_deal(pages: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Everyone sees everyone; the host (the first page) starts on the deal of seed 7; every
    page gets its hand."""
    _names_everywhere(pages)
    _seed_the_server(monkeypatch, 7)
    pages[0].click("#start")
    for page in pages:
        page.wait_for_selector("#hand .card")


def _names_everywhere(pages: list[Any]) -> None:
    for page in pages:
        page.wait_for_function("""(names) => {
            const shown = [...document.querySelectorAll('.seat .name')].map((e) => e.textContent);
            return shown.length === 3 && names.every((n, i) => shown[i].startsWith(n));
        }""", arg=list(NAMES))


def _settled(pages: list[Any], base: str, code: str, timeout: float = 10000) -> int:
    """Wait until every page shows the table's current version; that version."""
    version = int(_call(base, f"/api/tables/{code}")["version"])
    for page in pages:
        page.wait_for_function("(v) => (window.carioca.state.msg || {}).version === v",
                               arg=version, timeout=timeout)
    return version


def _my_turn(page: Any, phase: str, timeout: float = 15000) -> None:
    page.wait_for_function("""(phase) => { const S = window.carioca.state, m = S.msg || {};
        return m.view && m.view.to_act === S.seat && m.view.phase === phase
            && (m.legal || []).length > 0; }""", arg=phase, timeout=timeout)


def _draw(page: Any, pile: str = "mazo") -> None:
    _my_turn(page, "draw")
    page.click(f".pile.{pile}")
    _my_turn(page, "play")


def _discard(page: Any, card: str | None = None) -> str:
    """Pick a card of the hand (one of no use, unless told) and press Botar."""
    _my_turn(page, "play")
    st = _state(page)
    assert page.evaluate("() => window.carioca.state.selected.size") == 0
    card = card or _discard_choice(st["hand"], st["legal"])
    _card_in_hand(page, card).click()
    page.click("#discard")
    page.wait_for_function("""(seat) => { const v = window.carioca.state.msg.view;
        return v.to_act !== seat || v.phase !== 'play'; }""", arg=st["seat"])
    return card


def _counts(page: Any) -> list[int]:
    return list(_state(page)["view"]["hand_counts"])


def _seat_meta(page: Any, seat: int) -> str:
    return str(page.inner_text(f'.seat[data-seat="{seat}"] .meta'))


def _log_text(page: Any) -> str:
    return str(page.inner_text("#log"))


def _toasts(page: Any) -> str:
    return " | ".join(e.inner_text() for e in page.query_selector_all(".toast"))


# --------------------------------------------------------------------------- hidden cards

def _cards_in(obj: Any) -> set[str]:
    """Every card named anywhere in a JSON value."""
    found: set[str] = set()
    if isinstance(obj, str):
        if CARD.match(obj):
            found.add(obj)
    elif isinstance(obj, dict):
        for value in obj.values():
            found |= _cards_in(value)
    elif isinstance(obj, list):
        for value in obj:
            found |= _cards_in(value)
    return found


def _states(page: Any) -> list[dict[str, Any]]:
    out = []
    for text in page.got:
        msg = json.loads(text)
        if msg.get("type") == "state" and msg.get("view"):
            out.append(msg)
    return out


def _pretty(card: str) -> str:
    return "★" if card == "JK" else card[:-1] + SUIT[card[-1]]


def _assert_hidden(pages: list[Any]) -> None:
    """No page shows, and no page's socket received, a card of another player's hand that
    the page may not know: one never in its own hand, nor public (the pozo, a meld, the log,
    the cards known to be taken from the pozo). Each state names its own seat and opens no
    other hand."""
    hands = {_state(p)["seat"]: _state(p)["hand"] for p in pages}
    assert sorted(hands) == [0, 1, 2]
    for page in pages:
        seat = _state(page)["seat"]
        seen: set[str] = set()
        for msg in _states(page):
            view = msg["view"]
            assert view["seat"] == seat and view.get("open_hands") is None, view
            assert msg["round_end"] is None  # nothing is revealed before the round ends
            seen |= set(view["hand"])
            for key in ("pozo", "melds", "log", "known"):
                seen |= _cards_in(view[key])
        others = set().union(*(set(h) for s, h in hands.items() if s != seat))
        secret = others - seen
        assert secret, "the test has no hidden card to look for"
        for text in page.got:
            leaked = sorted(c for c in secret if f'"{c}"' in text)
            assert not leaked, (NAMES[seat], leaked, text[:300])
        in_dom = set(page.evaluate(
            "() => [...document.querySelectorAll('[data-card]')].map((e) => e.dataset.card)"))
        assert not in_dom & secret, (NAMES[seat], in_dom & secret)
        words = page.evaluate("""() => document.body.innerText + ' ' + [...document
            .querySelectorAll('[aria-label], [title]')].map((e) => (e.getAttribute('aria-label')
            || '') + ' ' + (e.getAttribute('title') || '')).join(' ')""")
        shown = sorted(c for c in secret if c != "JK" and _pretty(c) in words)
        assert not shown, (NAMES[seat], shown)
        # Only the page's own hand is drawn as cards; the others are counts.
        assert page.query_selector_all(".seat .card") == []
        mine = sorted(e.get_attribute("data-card")
                      for e in page.query_selector_all("#hand .card"))
        assert mine == sorted(hands[seat])
        for other in hands:
            if other != seat:
                assert f"🂠 {len(hands[other])}" in _seat_meta(page, other)


# --------------------------------------------------------------------------- the tests

def _three_at_a_table(browser: Any, base: str) -> tuple[list[Any], str]:
    """Ana creates the table in the lobby (one round, buying with a penalty card, undo on)
    and shares the link; Beto (on a phone) and Caro (in English) open it and sit down."""
    ana = _person(browser)
    ana.goto(base + "/")
    ana.wait_for_selector("#preset option", state="attached")
    ana.fill("#name", "Ana")
    ana.select_option("#preset", "chile")
    ana.select_option("#seats", "3")
    ana.click('details[data-group="rounds"] summary')
    for n in range(2, 9):
        ana.uncheck(f'input[name="round-{n}"]')
    ana.click('details[data-group="stealing"] summary')
    ana.select_option('select[name="buying"]', "penalty_card")
    ana.select_option('select[name="steal_timer"]', "15")
    ana.click('details[data-group="undo"] summary')
    ana.check('input[name="undo"]')
    ana.click("#create-form button[type=submit]")
    ana.wait_for_selector("#created:not([hidden])")
    link = ana.input_value("#share-link")
    code = ana.inner_text("#share-code").strip()
    assert link.endswith(f"/t/{code}") and "token" not in link
    ana.click("#go-table")
    ana.wait_for_selector("#start")

    beto, caro = _beto_and_caro_join(browser, link)
    pages = [ana, beto, caro]
    _names_everywhere(pages)
    for page, seat in zip(pages, range(3), strict=True):
        assert _state(page)["seat"] == seat
        assert page.get_attribute(".seat.me", "data-seat") == str(seat)
    ana.wait_for_function("() => document.querySelectorAll('.seat .dot.on').length === 3")
    # Only the host is offered the start; the others wait for her.
    assert ana.is_visible("#start") and "toca Empezar" in ana.inner_text("#status")
    assert not beto.query_selector("#start") and not caro.query_selector("#start")
    assert "Esperando que el anfitrión" in beto.inner_text("#status")
    assert "Waiting for the host" in caro.inner_text("#status")
    info = _call(base, f"/api/tables/{code}")
    assert info["options"]["buying"] == "penalty_card" and info["options"]["undo"] is True
    assert info["options"]["rounds"] == [1]
    return pages, code


def test_friends_join_by_the_link_take_turns_undo_and_buy(
        base_url: str, browser: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana, Beto and Caro, each in their own browser: they join by the link and see one
    another; each page shows its own hand and the others' counts only (nor does its socket
    get another hand); only the player to act can act, the others are told whom they wait
    for and see each move; Beto lays his contract down and takes it back (undo), and the
    others' pages are as before; two buy windows: Ana claims Caro's draw and Caro, who has
    first claim, takes the card from the pozo; then Beto claims, Ana draws from the mazo,
    and Beto gets the card and a penalty card, on every page."""
    seed = _seed_where_beto_may_bajarse({"rounds": [1], "buying": "penalty_card",
                                         "undo": True})
    pages, code = _three_at_a_table(browser, base_url)
    ana, beto, caro = pages

    # The host starts; every page deals its own hand.
    _seed_the_server(monkeypatch, seed)
    ana.click("#start")
    for page in pages:
        page.wait_for_selector("#hand .card")
    _settled(pages, base_url, code)
    for page in pages:
        assert len(page.query_selector_all("#hand .card")) == 12
    _assert_hidden(pages)

    # Beto plays first; Ana and Caro wait and are told for whom.
    assert "Tu turno: saca" in beto.inner_text("#status")
    assert "Juega Beto" in ana.inner_text("#status")
    assert "Beto to play" in caro.inner_text("#status")
    for page in pages:
        assert page.get_attribute(".seat.to-act", "data-seat") == "1"
    for page in (ana, caro):
        assert not page.query_selector(".pile.clickable")
        assert page.is_disabled("#discard")
        sent = len(page.sent)
        page.click(".pile.mazo")  # not her turn: nothing is sent
        page.click(".pile.pozo")
        assert len(page.sent) == sent
    caro.evaluate("() => window.carioca.act({draw: 'mazo'})")  # past the page: refused
    caro.wait_for_selector(".toast")
    assert "Beto's turn" in _toasts(caro)
    assert _counts(ana) == [12, 12, 12]

    # Beto draws from the mazo: the others see his thirteenth card and the mazo shrink.
    mazo = _state(ana)["view"]["mazo_count"]
    _draw(beto)
    _settled(pages, base_url, code)
    for page in (ana, caro):
        assert _counts(page) == [12, 13, 12]
        assert _state(page)["view"]["mazo_count"] == mazo - 1
        assert "🂠 13" in _seat_meta(page, 1)
    assert "Beto saca del mazo" in _log_text(ana)
    assert "Beto draws from the mazo" in _log_text(caro)
    assert "Bájate, agrega o bota" in beto.inner_text("#status")

    # Undo: Beto lays his contract down (a suggestion of the page), the others see it, he
    # takes it back, and their pages are as they were.
    before = {id(p): (_state(p)["view"], p.inner_html("#board"), p.inner_text("#seats"),
                      _log_text(p)) for p in (ana, caro)}
    hand = sorted(_state(beto)["hand"])
    beto.click(".suggest button")
    beto.click("#bajarse")
    for page in (ana, caro):
        page.wait_for_function("() => document.querySelectorAll('#board .meld').length === 2")
        assert "🂠 7" in _seat_meta(page, 1)
    assert "Beto se baja" in _log_text(ana)
    beto.wait_for_selector("#undo")
    assert not ana.query_selector("#undo") and not caro.query_selector("#undo")
    beto.click("#undo")
    for page in (ana, caro):
        page.wait_for_function("() => !document.querySelector('#board .meld')")
    _settled(pages, base_url, code)
    for page in (ana, caro):
        view, board, seats, log = before[id(page)]
        assert _state(page)["view"] == view
        assert page.inner_html("#board") == board
        assert page.inner_text("#seats") == seats
        assert _log_text(page) == log
    assert sorted(_state(beto)["hand"]) == hand
    assert not _state(beto)["view"]["down"][1]

    # Beto discards. Caro draws next and has first claim; Ana may buy; Beto may not.
    thrown = _discard(beto)
    _settled(pages, base_url, code)
    ana.wait_for_selector("#buy-btn")
    assert _pretty(thrown) in ana.inner_text("#buy")
    assert "carta más del mazo" in ana.inner_text("#buy")  # the price: a penalty card
    assert beto.is_hidden("#buy") and caro.is_hidden("#buy")
    # The coach advises on the buy too (buy it, or let it pass and why); not Beto, who threw.
    assert ana.is_enabled("#hint") and caro.is_enabled("#hint") and beto.is_disabled("#hint")
    ana.click("#hint")
    ana.wait_for_selector("#hintbox:not([hidden])")
    assert _pretty(thrown) in ana.inner_text("#hintbox")
    assert "Your turn: draw" in caro.inner_text("#status")
    # Past the pages, the server refuses a buy of the discarder and of the player to draw.
    beto.evaluate("() => window.carioca.act({buy: true})")
    beto.wait_for_selector(".toast:has-text('no puedes comprar la carta que acabas de botar')")
    caro.evaluate("() => window.carioca.act({buy: true})")
    caro.wait_for_selector(".toast:has-text('take the pozo card by drawing it')")
    ana.click("#buy-btn")
    ana.wait_for_function("() => document.querySelector('#buy').textContent"
                          ".includes('Caro saca primero')")
    caro.click(".pile.pozo")  # Caro wants the card too: her draw takes it
    _my_turn(caro, "play")
    _settled(pages, base_url, code)
    for page in pages:
        assert _counts(page) == [12, 12, 13]
        assert page.is_hidden("#buy")
    assert Counter(_state(caro)["hand"])[thrown] >= 1
    ana.wait_for_function("() => [...document.querySelectorAll('.toast')].some((e) => "
                          "e.textContent.includes('Caro sacó'))")
    # The log names the card Caro took: everyone saw it on the pozo.
    assert f"Beto bota {_pretty(thrown)}\nCaro saca {_pretty(thrown)} del pozo" in _log_text(ana)
    assert "compra" not in _log_text(ana)
    ana.evaluate("() => window.carioca.act({buy: true})")  # the window closed with the draw
    ana.wait_for_selector(".toast:has-text('antes de que el')")

    # Caro discards. Ana draws next; Beto claims the card, Ana draws from the mazo: the card
    # is Beto's, with a penalty card from the mazo.
    thrown = _discard(caro)
    _settled(pages, base_url, code)
    beto.wait_for_selector("#buy-btn")
    assert ana.is_hidden("#buy") and caro.is_hidden("#buy")
    had = Counter(_state(beto)["hand"])
    mazo = _state(ana)["view"]["mazo_count"]
    pozo = _state(ana)["view"]["pozo"]
    beto.click("#buy-btn")
    beto.wait_for_selector("#buy:has-text('Pediste el')")
    # Beto's page, opened again, still shows his claim waiting for Ana's draw.
    beto.reload()
    _settled(pages, base_url, code)
    beto.wait_for_selector(f"#buy:has-text('Pediste el {_pretty(thrown)}. Ana saca primero')")
    assert beto.query_selector("#buy-btn") is None
    _draw(ana, "mazo")
    _settled(pages, base_url, code)
    for page in pages:
        view = _state(page)["view"]
        assert view["hand_counts"] == [13, 14, 12]
        assert view["pozo"] == pozo[:-1]  # the card bought left the pozo
        assert view["mazo_count"] == mazo - 2  # the penalty card, then Ana's draw
        assert view["buys"] == [0, 1, 0]
        assert page.is_hidden("#buy")
    got = Counter(_state(beto)["hand"]) - had
    assert sum(got.values()) == 2 and got[thrown] >= 1, got
    assert "1 compra" in _seat_meta(ana, 1) and "1 buy" in _seat_meta(caro, 1)
    assert f"Beto compra {_pretty(thrown)} del pozo" in _log_text(ana)
    assert f"Beto buys {_pretty(thrown)} from the pozo" in _log_text(caro)
    beto.wait_for_function("() => [...document.querySelectorAll('.toast')].some((e) => "
                           "e.textContent.includes('Compraste'))")
    assert len(beto.query_selector_all("#hand .card")) == 14
    # The penalty card is Beto's alone: still nobody else's page or socket has it.
    _assert_hidden(pages)
    for page in pages:
        assert not page.js_errors, page.js_errors
    for page in pages:
        page.context.close()


def test_a_player_leaves_comes_back_a_bot_stands_in_and_the_round_ends_alike(
        base_url: str, browser: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Beto closes his tab mid-game: Ana and Caro see him away and may let a bot play for
    him; he opens the link again and has his seat and his hand back. Later he leaves again,
    Caro lets a bot play: Tía Chela plays his turn; he comes back and plays on. The round ends
    (a cap of ten turns): every page shows the same scores."""
    created = _call(base_url, "/api/tables", {
        "name": "Ana", "preset": "chile", "seats": 3,
        "options": {"rounds": [1], "max_turns_per_round": 10}})
    code, token = created["code"], created["token"]
    link = f"{base_url}/t/{code}"
    ana = _person(browser)
    ana.goto(f"{link}?token={token}")
    ana.wait_for_selector("#start")
    beto, caro = _beto_and_caro_join(browser, link)
    pages = [ana, beto, caro]
    _start_on_a_known_deal(pages, monkeypatch)

    _draw(beto)
    _discard(beto)
    _settled(pages, base_url, code)
    hand = sorted(_state(beto)["hand"])

    # Beto closes his tab: the others see him away, with a bot offered for his seat.
    beto.close()
    for page in (ana, caro):
        page.wait_for_selector('.seat[data-seat="1"] button[data-stand-in="1"]')
        assert not page.query_selector('.seat[data-seat="1"] .dot.on')
    assert ana.get_attribute('.seat[data-seat="1"] .dot', "title") == "desconectado"
    assert caro.get_attribute('.seat[data-seat="1"] .dot', "title") == "away"
    assert not ana.query_selector('button[data-stand-in="2"]')  # Caro is here
    _draw(caro)
    _discard(caro)
    _draw(ana)
    _discard(ana)
    _settled([ana, caro], base_url, code)
    assert "Juega Beto" in ana.inner_text("#status")  # the table waits for him

    # He opens the link again: his seat, his hand, his turn.
    beto = _again(beto)
    beto.goto(link)
    beto.wait_for_selector("#hand .card")
    assert _state(beto)["seat"] == 1
    assert beto.get_attribute(".seat.me", "data-seat") == "1"
    assert sorted(_state(beto)["hand"]) == hand
    assert "Tu turno: saca" in beto.inner_text("#status")
    for page in (ana, caro):
        page.wait_for_selector('.seat[data-seat="1"] .dot.on')
        assert not page.query_selector("button[data-stand-in]")
    pages = [ana, beto, caro]
    _draw(beto)
    _discard(beto)
    _settled(pages, base_url, code)

    # He leaves again; Caro lets a bot play for him, and it plays his turn.
    beto.close()
    caro.click('button[data-stand-in="1"]')
    for page in (ana, caro):
        page.wait_for_function("() => document.querySelector('.seat[data-seat=\"1\"]')"
                               ".textContent.match(/juega un bot|a bot plays/)")
    info = _call(base_url, f"/api/tables/{code}")
    assert info["seats"][1]["stand_in"] == "chela" and not info["seats"][1]["connected"]
    _draw(caro)
    _discard(caro)
    _draw(ana)
    discards = _log_text(ana).count("Beto bota")
    _discard(ana)
    caro.wait_for_function("() => { const v = window.carioca.state.msg.view;"
                           " return v.to_act === 2 && v.phase === 'draw'; }")
    assert _log_text(ana).count("Beto bota") == discards + 1  # the bot played for him

    # Back again: the bot stops, and Beto plays on with the hand it left him.
    beto = _again(beto)
    beto.goto(link)
    beto.wait_for_selector("#hand .card")
    pages = [ana, beto, caro]
    for page in (ana, caro):
        page.wait_for_function("() => !document.querySelector('.seat[data-seat=\"1\"]')"
                               ".textContent.match(/juega un bot|a bot plays/)")
    assert _call(base_url, f"/api/tables/{code}")["seats"][1]["stand_in"] is None
    _settled(pages, base_url, code)
    assert len(_state(beto)["hand"]) == _counts(ana)[1]

    # Caro, Ana and Beto play the last turns of the ten: the round (and the game) ends.
    for page in (caro, ana, beto):
        _draw(page)
        _discard(page)
    scores = []
    for page in pages:
        page.wait_for_selector("#reveal[open] .reveal-row")
        rows = [(r.query_selector(".name").inner_text(), int(r.query_selector(".score")
                                                             .inner_text()))
                for r in page.query_selector_all("#reveal .reveal-row")]
        st = _state(page)
        assert [s for _, s in rows] == st["round_end"]["scores"]
        assert [n for n, _ in rows] == list(NAMES)
        page.click("#reveal-ok")
        totals = [int(td.inner_text()) for td in page.query_selector_all("#sheet tfoot td")[1:]]
        scores.append((rows, totals, st["round_end"]["hands"]))
    assert scores[0] == scores[1] == scores[2]
    assert scores[0][1] == [s for _, s in scores[0][0]]  # one round: the totals are its scores
    assert all(s > 0 for _, s in scores[0][0])  # nobody went out: every hand counts
    for page in pages:
        assert not page.js_errors, page.js_errors
        page.context.close()


def test_a_draw_that_crosses_a_claim_on_the_way_is_played(base_url: str, browser: Any,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Ana presses Comprar just as Caro, whose draw it is, taps the pozo: Caro's page sent
    its draw before the claim's state reached it (her network is slow). A claim changes no
    move Caro may make, so her draw is taken as it is, not refused as stale, and Caro takes
    the card (she has first claim), as if nothing had crossed."""
    created = _call(base_url, "/api/tables", {
        "name": "Ana", "preset": "chile", "seats": 3,
        "options": {"rounds": [1], "buying": "penalty_card"}, "steal_timer": 15})
    code, token = created["code"], created["token"]
    link = f"{base_url}/t/{code}"
    ana = _person(browser)
    ana.goto(f"{link}?token={token}")
    beto = _person(browser)
    _join_by_link(beto, link, "Beto")

    # Caro's messages from the server go through the test, which holds them back a while.
    caro = _page(browser, DESKTOP, "es-CL")
    held: list[str | bytes] = []
    holding = {"on": False}

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if holding["on"]:
                held.append(message)
            else:
                ws.send(message)

        server.on_message(from_server)
        holding["page"] = ws

    caro.route_web_socket(re.compile(r".*/ws/.*"), route)
    _join_by_link(caro, link, "Caro")
    pages = [ana, beto, caro]
    _start_on_a_known_deal(pages, monkeypatch)
    _draw(beto)
    thrown = _discard(beto)
    _settled(pages, base_url, code)
    ana.wait_for_selector("#buy-btn")
    _my_turn(caro, "draw")

    holding["on"] = True
    ana.click("#buy-btn")
    claimed = _settled([ana, beto], base_url, code)  # the claim is in; Caro has not heard
    assert _state(caro)["version"] == claimed - 1
    caro.click(".pile.pozo")
    deadline = time.time() + 10
    while not any('"ack"' in str(m) for m in held):
        assert time.time() < deadline, held
        caro.wait_for_timeout(20)
    said = [json.loads(m) for m in held]
    assert not any(m.get("code") == "stale_version" for m in said), said
    news = next(i for i, m in enumerate(said) if m["type"] == "state")
    assert said[news]["version"] == claimed  # the claim's state, then the draw taken
    holding["on"] = False
    for message in held:
        holding["page"].send(message)

    _my_turn(caro, "play")
    _settled(pages, base_url, code)
    for page in pages:
        assert _counts(page) == [12, 12, 13]
    assert Counter(_state(caro)["hand"])[thrown] >= 1
    ana.wait_for_function("() => [...document.querySelectorAll('.toast')].some((e) => "
                          "e.textContent.includes('Caro sacó'))")
    for page in pages:
        assert not page.js_errors, page.js_errors
        page.context.close()
