"""The table page for a player with only a keyboard, a screen reader or a phone, in Chromium:
a whole turn played with Tab, Space and Enter alone; cards named in the page's language; a
polite live region that says what was played and whose turn it is; touch targets a finger can
hit on a 360 px screen. The server, the browser and the scripted game are those of
tests/test_web_pages.py."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from test_web_pages import (  # noqa: E402  (the fixtures are used by their names)
    CHROMIUM,
    _card_in_hand,
    _drag_to,
    _fed_by_hand,
    _inject,
    _new_table,
    _page,
    _scripted_game,
    _state,
    _trio_game,
    base_url,
    browser,
)

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")
__all__ = ["base_url", "browser"]  # fixtures, shared with test_web_pages

SMALL_PHONE = {"width": 360, "height": 740}
TARGET = 40  # px: the least side of a control a finger is to hit


def _table_page(browser: Any, base_url: str, created: dict[str, Any], locale: str) -> Any:
    """The table page of ``created``'s host on a small phone in ``locale``, its states fed
    by the test (``_inject``), not by the server."""
    page = _page(browser, SMALL_PHONE, locale)
    page.goto(f"{base_url}/t/{created['code']}?token={created['token']}")
    _fed_by_hand(page)
    return page


def _tab_to(page: Any, css: str, back: bool = False, most: int = 80) -> None:
    """Press Tab (Shift+Tab if ``back``) until the focus is on an element matching ``css``."""
    for _ in range(most):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        if page.evaluate("(css) => !!document.activeElement?.matches(css)", css):
            return
    raise AssertionError(f"Tab never reached {css}")


def _focus_ring(page: Any) -> str:
    style: str = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    return style


def _sent(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("() => window.sent")  # type: ignore[no-any-return]


def _small_targets(page: Any) -> list[str]:
    """The visible controls of the page smaller than a finger (TARGET px a side). The mini
    cards inside a meld are left out: they overlap, and a tap on the meld plays there."""
    small: list[str] = page.evaluate("""(least) => {
        const controls = document.querySelectorAll(
            'button, select, a[href], input:not([type=checkbox]), [role=button], c-settings .four');
        const small = [];
        for (const el of controls) {
            const r = el.getBoundingClientRect();
            if (!r.width || el.closest('.meld .cards')) continue;
            if (r.width < least - 0.5 || r.height < least - 0.5) {
                small.push(`${el.tagName} ${el.id || el.className} ${r.width}x${r.height}`);
            }
        }
        return small;
    }""", TARGET)
    return small


def test_cards_are_named_in_the_pages_language(base_url: str, browser: Any) -> None:
    """A screen reader hears "reina de picas", "comodín, en lugar de 6 de tréboles", a meld
    it may play on with its cards, and the pozo with its top card; in each language."""
    created = _new_table(base_url)
    _, (before, later) = _scripted_game()
    names = {"es-CL": ("reina de picas", "10 de corazones", "comodín, en lugar de 6 de tréboles"),
             "en-US": ("queen of spades", "10 of hearts", "joker, standing for 6 of clubs"),
             "de-DE": ("Pik Dame", "Herz 10", "Joker, steht für Kreuz 6"),
             "sv-SE": ("spader dam", "hjärter 10", "joker, står för klöver 6")}
    for locale, (queen, ten, wild) in names.items():
        page = _table_page(browser, base_url, created, locale)
        _inject(page, before)
        assert page.get_attribute('#hand .card[data-card="QS"]', "aria-label") == queen
        assert page.get_attribute('#hand .card[data-card="10H"]', "aria-label") == ten
        assert page.get_attribute("#hand", "aria-label")  # "Tu mano"
        _inject(page, later)
        assert page.get_attribute(".meld .card.wild", "aria-label") == wild
        if locale == "es-CL":
            meld = page.get_attribute('.meld[data-meld="1"] .label', "aria-label")
            assert meld == ("1 · escala · Beto: 4 de tréboles, 5 de tréboles, "
                            "comodín, en lugar de 6 de tréboles, 7 de tréboles")
            pozo = page.get_attribute(".pile.pozo", "aria-label")
            top = later["view"]["pozo"][-1]
            words = page.get_attribute(f'.pile.pozo .card[data-card="{top}"]', "aria-label")
            count = len(later["view"]["pozo"])
            assert pozo == f"Pozo: {count} carta{'s' if count > 1 else ''}, arriba: {words}"
            assert page.get_attribute(".pile.mazo", "aria-label").startswith("Mazo: ")
        assert not page.js_errors, page.js_errors
        page.context.close()


def test_a_turn_is_played_with_the_keyboard_alone_on_a_small_phone(base_url: str,
                                                                   browser: Any) -> None:
    """Tab reaches every control of a turn, with a ring around it; Space selects a card and
    Alt+arrow moves it; Enter closes a group, lays the contract down, swaps a joker, lays a
    card off at an escala's end and discards. Every control is a finger's size on a 360 px
    screen, and the page does not scroll sideways. The states are the engine's own views."""
    created = _new_table(base_url)
    _, (before, later) = _scripted_game()
    page = _table_page(browser, base_url, created, "es-CL")
    _inject(page, before, forget_sent=True)

    def card(c: str) -> str:
        return f'#hand .card[data-card="{c}"]'

    def space_on(c: str) -> None:
        page.evaluate("() => document.body.focus()")
        _tab_to(page, card(c))
        page.keyboard.press("Space")

    # Alt+arrow moves the focused card, which keeps the focus.
    _tab_to(page, card("4D"))
    assert _focus_ring(page) == "solid"
    ident = page.evaluate("() => document.activeElement.dataset.id")
    order = _state(page)["hand"]
    page.keyboard.press("Alt+ArrowLeft")
    moved = _state(page)["hand"]
    at = order.index("4D")
    assert moved[at - 1] == "4D" and moved[at] == order[at - 1]
    assert page.evaluate("() => document.activeElement.dataset.id") == ident
    page.keyboard.press("Alt+ArrowRight")
    assert _state(page)["hand"] == order

    # Bajarse: a trío closed as a group, then the escala, laid down with Enter.
    for c in ("QS", "QD", "QC"):
        space_on(c)
        assert page.get_attribute(card(c), "aria-pressed") == "true"
    _tab_to(page, "#new-meld")
    page.keyboard.press("Enter")
    page.wait_for_selector(".groups .group")
    for c in ("8H", "9H", "10H", "JH"):
        space_on(c)
    assert not _small_targets(page), _small_targets(page)  # groups, suggestions, toolbar
    _tab_to(page, "#bajarse")
    assert _focus_ring(page) == "solid"
    page.keyboard.press("Enter")
    assert _sent(page)[-1]["action"] == {"p": 0, "bajar": [["QS", "QD", "QC"],
                                                           ["8H", "9H", "10H", "JH"]]}

    # A turn later: select 6C, Tab to Beto's joker, Enter swaps it.
    _inject(page, later, forget_sent=True)
    space_on("6C")
    _tab_to(page, '.meld[data-meld="1"] .card.wild')
    assert _focus_ring(page) == "solid"
    assert page.get_attribute('.meld[data-meld="1"] .card.wild', "role") == "button"
    page.keyboard.press("Enter")
    assert _sent(page)[-1]["action"] == {"p": 0, "swap": {"card": "6C", "meld": 1}}

    # Agregar 3C at the low end of the escala: the end is a button Tab reaches.
    _inject(page, {**later, "version": later["version"] + 1}, forget_sent=True)
    space_on("6C")  # unselect it
    space_on("3C")
    assert not _small_targets(page), _small_targets(page)  # the escala's ends shown
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    _tab_to(page, '.meld[data-meld="1"] .end.low')
    assert _focus_ring(page) == "solid"
    page.keyboard.press("Enter")
    assert _sent(page)[-1]["action"] == {"p": 0, "agregar": {"card": "3C", "meld": 1,
                                                             "end": "low"}}

    # Discard 4D with the button.
    _inject(page, {**later, "version": later["version"] + 2}, forget_sent=True)
    space_on("3C")
    space_on("4D")
    _tab_to(page, "#discard")
    page.keyboard.press("Enter")
    assert _sent(page)[-1]["action"] == {"p": 0, "discard": "4D"}
    # Beto's turn now: the focus goes to the line that says so, not to the page's top.
    _inject(page, {**later, "version": later["version"] + 3, "legal": [],
                   "view": {**later["view"], "to_act": 1, "phase": "draw"}})
    page.wait_for_function("() => document.activeElement && document.activeElement.id"
                           " === 'status'")
    assert "Beto" in page.inner_text("#status")
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_the_live_region_says_what_was_played_and_whose_turn_it_is(base_url: str,
                                                                   browser: Any) -> None:
    """Against the random bot at a real table, with the keyboard alone: Enter on the mazo
    draws (and the page says which card came), Space and Enter on Botar discard; the
    polite live region then says what each did and whose turn it is, "Al azar" included."""
    created = _new_table(base_url)
    page = _page(browser, SMALL_PHONE, "es-CL")
    page.goto(f"{base_url}/t/{created['code']}?token={created['token']}")
    page.wait_for_selector("#start")
    # The bot's Spanish title comes with the presets, which may answer after the table.
    page.wait_for_function("() => (window.carioca.state.bots || []).length > 0")
    assert page.get_attribute("#announce", "aria-live") == "polite"
    assert page.get_attribute("#announce", "role") == "status"
    assert page.get_attribute("#status", "aria-live") is None  # said once, in #announce
    page.evaluate("""() => {
        window.said = [];
        new MutationObserver(() => window.said.push(document.querySelector('#announce')
            .textContent)).observe(document.querySelector('#announce'), {childList: true});
    }""")
    _tab_to(page, "#start")
    page.keyboard.press("Enter")
    page.wait_for_function("""() => { const m = window.carioca.state.msg || {};
        return m.view && m.view.to_act === 0 && m.view.phase === 'draw'
            && (m.legal || []).some((a) => a.draw); }""", timeout=20000)
    assert page.text_content("#announce").endswith("Tu turno: saca del mazo o del pozo")

    page.evaluate("() => document.body.focus()")
    _tab_to(page, ".pile.mazo")
    assert _focus_ring(page) == "solid"
    assert not _small_targets(page), _small_targets(page)
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.carioca.state.msg.view.phase === 'play'")
    drawn = page.text_content("#announce")
    assert drawn.startswith("Sacaste: ") and drawn.endswith(
        "Bájate, agrega o bota una carta"), drawn

    _tab_to(page, '#hand .card:not([data-card="JK"])')
    card = page.evaluate("() => document.activeElement.dataset.card")
    words = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Space")
    _tab_to(page, "#discard")
    before = len(page.evaluate("() => window.said"))  # the turn comes back after the discard
    page.keyboard.press("Enter")
    deadline = time.time() + 20
    while not any(s.endswith("Tu turno: saca del mazo o del pozo")
                  for s in page.evaluate("() => window.said")[before:]):
        assert time.time() < deadline, page.evaluate("() => window.said")
        page.wait_for_timeout(50)
    said = page.evaluate("() => window.said")
    assert f"Ana bota {words}. Juega Al azar" in said, (card, said)
    assert any(s.startswith("Al azar ") for s in said), said  # the bot's moves, by its name
    assert not page.js_errors, page.js_errors
    page.context.close()


def _pick(page: Any, c: str) -> None:
    """Select ``c`` alone in the hand (a tap on it)."""
    page.evaluate("() => { window.carioca.state.selected.clear(); window.carioca.render(); }")
    _card_in_hand(page, c).click()


def _uncovered(page: Any, css: str) -> bool:
    """Whether every point across the middle of ``css`` is that element's (no card over it)."""
    return bool(page.evaluate("""(css) => {
        const el = document.querySelector(css);
        el.scrollIntoView({block: 'center'});
        const r = el.getBoundingClientRect();
        for (let x = r.left + 1; x < r.right - 1; x += 2) {
            const at = document.elementFromPoint(x, r.top + r.height / 2);
            if (!at || !el.contains(at)) return false;
        }
        return true;
    }""", css))


def test_a_joker_the_card_may_swap_is_a_finger_s_size_on_a_phone(base_url: str,
                                                                 browser: Any) -> None:
    """Beto's escala 4C 5C JK 7C and Ana's 6C, on a 360 px phone: with the 6C picked, the
    joker is 40 px wide, clear of its neighbours, with a ⇄ badge, and a tap on it swaps; a
    tap on the meld swaps too (laying the 6C off is not legal). A card that may not swap
    leaves the joker as it was, and still lays off at once."""
    created = _new_table(base_url)
    _, (_before, later) = _scripted_game()
    page = _table_page(browser, base_url, created, "es-CL")
    wild = '.meld[data-meld="1"] .card.wild'
    _inject(page, later, forget_sent=True)
    assert page.locator(wild).bounding_box()["width"] < TARGET  # no card picked: as it was
    _pick(page, "6C")
    assert page.get_attribute(wild, "class").split().count("swap-target") == 1
    box = page.locator(wild).bounding_box()
    assert box["width"] >= TARGET and box["height"] >= TARGET, box
    assert _uncovered(page, wild)
    badge = page.evaluate("(css) => getComputedStyle(document.querySelector(css), '::after')"
                          ".content", wild)
    assert badge == '"⇄"'
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    page.click(wild)
    assert _sent(page)[-1]["action"] == {"p": 0, "swap": {"card": "6C", "meld": 1}}
    assert not page.locator("#reveal").is_visible()  # only one move: no question asked

    _inject(page, {**later, "version": later["version"] + 1}, forget_sent=True)
    page.click('.meld[data-meld="1"] .label')
    assert _sent(page)[-1]["action"] == {"p": 0, "swap": {"card": "6C", "meld": 1}}

    # 8C may only be laid off: the joker stays small, and a tap on the meld lays it off.
    _inject(page, {**later, "version": later["version"] + 2}, forget_sent=True)
    _pick(page, "8C")
    assert "swap-target" not in page.get_attribute(wild, "class")
    page.click('.meld[data-meld="1"] .label')
    assert _sent(page)[-1]["action"] == {"p": 0, "agregar": {"card": "8C", "meld": 1,
                                                             "end": "high"}}
    assert not page.locator("#reveal").is_visible()
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_a_card_that_may_lay_off_or_swap_asks_which(base_url: str, browser: Any) -> None:
    """Beto's trío 7H 7S JK and Ana's 7D, on a 360 px phone: a tap (or Enter) on the trío asks
    "Agregar" or "Cambiar por el comodín" in a dialog of finger-sized, named buttons, and
    sends the move chosen, as the server's legal list has it; Escape or ✕ sends nothing; a
    choice the table no longer allows is not sent. A tap or a drop on the joker swaps at once,
    a drop on the trío asks, and a card that only lays off does so without a question."""
    created = _new_table(base_url)
    _, (_before, later) = _trio_game()
    assert {"p": 0, "agregar": {"card": "7D", "meld": 0}} in later["legal"]
    assert {"p": 0, "swap": {"card": "7D", "meld": 0}} in later["legal"]
    page = _table_page(browser, base_url, created, "es-CL")
    trio = '.meld[data-meld="0"]'
    version = later["version"]

    def fresh() -> None:
        nonlocal version
        version += 1
        _inject(page, {**later, "version": version}, forget_sent=True)
        _pick(page, "7D")

    def ask_by_tap() -> None:
        fresh()
        page.click(f'{trio} .card[data-card="7H"]')
        page.wait_for_selector("#reveal[open]")
        assert _sent(page) == []

    # A tap on the trío asks; the dialog is named, its first button has the focus.
    ask_by_tap()
    assert page.inner_text("#reveal-title") == "¿Qué haces con tu 7 de diamantes?"
    assert _named(page, "dialog", "¿Qué haces con tu 7 de diamantes?")
    assert _named(page, "button", "Agregar") and _named(page, "button", "Cambiar por el comodín")
    assert _named(page, "button", "Cerrar")
    assert page.evaluate("() => document.activeElement.id") == "how-agregar"
    assert not _small_targets(page), _small_targets(page)
    assert _unnamed_controls(page) == [], _unnamed_controls(page)
    page.click("#how-swap")
    assert not page.locator("#reveal").is_visible()
    assert _sent(page)[-1]["action"] == {"p": 0, "swap": {"card": "7D", "meld": 0}}

    ask_by_tap()
    page.click("#how-agregar")
    assert _sent(page)[-1]["action"] == {"p": 0, "agregar": {"card": "7D", "meld": 0}}

    # Escape, or ✕, sends nothing.
    ask_by_tap()
    page.keyboard.press("Escape")
    assert not page.locator("#reveal").is_visible()
    ask_by_tap()
    page.click("#ask-close")
    assert not page.locator("#reveal").is_visible()
    assert _sent(page) == []

    # With the keyboard alone: Enter on the trío asks, Tab and Enter choose the swap. The
    # trío's label is its button (the ends and the wilds are buttons beside it, not in it),
    # and the ring goes round the whole trío.
    fresh()
    assert page.get_attribute(trio, "role") == "group"
    assert page.locator(f"{trio} [role=button] [role=button], {trio} [role=button] button"
                        ).count() == 0
    _tab_to(page, f"{trio} .label")
    assert page.evaluate("(css) => getComputedStyle(document.querySelector(css)).outlineStyle",
                         trio) == "solid"
    page.keyboard.press("Enter")
    page.wait_for_selector("#reveal[open]")
    assert page.evaluate("() => document.activeElement.id") == "how-agregar"
    assert _focus_ring(page) == "solid"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "how-swap"
    page.keyboard.press("Enter")
    assert [m["action"] for m in _sent(page)] == [{"p": 0, "swap": {"card": "7D", "meld": 0}}]
    fresh()
    _tab_to(page, f"{trio} .label")
    page.keyboard.press("Space")  # opens the question, and answers nothing yet
    page.wait_for_selector("#reveal[open]")
    page.wait_for_timeout(100)
    assert _sent(page) == []
    page.keyboard.press("Enter")
    assert [m["action"] for m in _sent(page)] == [{"p": 0, "agregar": {"card": "7D", "meld": 0}}]

    # The table moved while the question was open: a move it no longer allows is not sent.
    ask_by_tap()
    gone = [a for a in later["legal"] if "swap" not in a]
    version += 1
    _inject(page, {**later, "version": version, "legal": gone})
    page.click("#how-swap")
    assert _sent(page) == []
    page.click(".toast")  # said, and tapped away (it would cover the hand)

    # A tap on the joker (40 px, uncovered) swaps at once; so does a drop on it.
    fresh()
    wild = f"{trio} .card.wild"
    assert page.locator(wild).bounding_box()["width"] >= TARGET and _uncovered(page, wild)
    page.click(wild)
    assert not page.locator("#reveal").is_visible()
    assert _sent(page)[-1]["action"] == {"p": 0, "swap": {"card": "7D", "meld": 0}}
    fresh()
    _drag_to(page, _card_in_hand(page, "7D"), page.locator(wild))
    assert _sent(page)[-1]["action"] == {"p": 0, "swap": {"card": "7D", "meld": 0}}

    # A drop on the trío's other cards asks.
    fresh()
    _drag_to(page, _card_in_hand(page, "7D"), page.locator(f'{trio} .label'))
    page.wait_for_selector("#reveal[open]")
    page.click("#how-agregar")
    assert _sent(page)[-1]["action"] == {"p": 0, "agregar": {"card": "7D", "meld": 0}}

    # The common case is as quick as ever: 3C lays off on the escala's low end at one tap.
    fresh()
    _pick(page, "3C")
    page.click('.meld[data-meld="1"] .label')
    assert not page.locator("#reveal").is_visible()
    assert _sent(page)[-1]["action"] == {"p": 0, "agregar": {"card": "3C", "meld": 1,
                                                             "end": "low"}}
    assert not page.js_errors, page.js_errors
    page.context.close()

    # The question in the other languages.
    words = {"en-US": ("What do you do with the 7 of diamonds?", "Agregar (lay it off)",
                       "Swap it for the wild card"),
             "de-DE": ("Was machst du mit Karo 7?", "Anlegen (agregar)",
                       "Gegen den Joker tauschen"),
             "sv-SE": ("Vad gör du med ruter 7?", "Lägg på (agregar)", "Byt mot jokern")}
    for locale, (title, agregar, swap) in words.items():
        page = _table_page(browser, base_url, created, locale)
        _inject(page, later)
        _pick(page, "7D")
        page.click(f'{trio} .card[data-card="7H"]')
        page.wait_for_selector("#reveal[open]")
        assert page.inner_text("#reveal-title") == title
        assert page.inner_text("#how-agregar") == agregar and page.inner_text("#how-swap") == swap
        assert not _small_targets(page), _small_targets(page)
        assert not page.js_errors, page.js_errors
        page.context.close()


def _buy_state(base: dict[str, Any], version: int, deadline: float,
               turn: int | None = None) -> dict[str, Any]:
    """``base`` during a buy window Ana (seat 0) may buy in, while Beto is to draw."""
    view = {**base["view"], "buy_window": True, "to_act": 1, "phase": "draw"}
    if turn is not None:
        view["turn"] = turn
    return {**base, "version": version, "view": view, "legal": [{"p": 0, "buy": True}],
            "deadlines": {"turn": None, "buy": deadline}}


def test_the_buy_banner_is_said_once_for_each_offer(base_url: str, browser: Any) -> None:
    """The banner is an assertive live region: a state of the same window that changes nothing
    in it (or a tap on a card) leaves its text where it is, and its countdown ticks on; a new
    price, a claim or a new window says it anew."""
    created = _new_table(base_url)
    _, (_before, later) = _scripted_game()
    page = _table_page(browser, base_url, created, "es-CL")
    assert page.get_attribute("#buy", "aria-live") == "assertive"
    deadline = time.time() + 30
    _inject(page, _buy_state(later, 2000, deadline))
    page.wait_for_selector("#buy-btn")
    top = later["view"]["pozo"][-1]
    assert page.get_attribute("#buy .card", "data-card") == top  # the pozo's card is offered
    assert "¿Compras el " in page.inner_text("#buy")
    keep = """() => { window.kept = [...document.querySelectorAll('#buy span, #buy button')]
        .map((el) => el.firstChild).concat([document.querySelector('#buy c-countdown')]); }"""
    kept = "() => window.kept.every((node) => node.isConnected)"
    page.evaluate(keep)
    count = page.inner_text("#buy c-countdown")

    # Another state of the same window, a redraw (a tap on a card), a later deadline: nothing
    # is replaced.
    later_view = {**later, "view": {**later["view"], "hand_counts": [6, 9]}}
    _inject(page, _buy_state(later_view, 2001, deadline))
    page.evaluate("() => window.carioca.render()")
    assert page.evaluate(kept)
    _inject(page, _buy_state(later, 2002, deadline + 5))
    assert page.evaluate(kept)
    assert float(page.get_attribute("#buy c-countdown", "deadline")) == deadline + 5
    page.wait_for_timeout(1300)
    assert page.inner_text("#buy c-countdown") != count  # it ticks
    assert page.evaluate(kept)

    # The price changes: the banner is said anew, with it.
    page.evaluate("""() => { const m = window.carioca.state.msg;
        window.carioca.receive({...m, version: 2003,
            table: {...m.table, options: {...m.table.options, buying: 'penalty_points'}}}); }""")
    assert not page.evaluate(kept)
    assert "Cuesta 2 puntos de castigo." in page.inner_text("#buy")

    # A claim changes what it says; the next state of the window does not.
    page.click("#buy-btn")
    assert _sent(page)[-1]["action"] == {"p": 0, "buy": True}
    assert page.inner_text("#buy").startswith("Pediste el ")
    page.evaluate(keep)
    _inject(page, _buy_state(later, 2004, deadline + 5))
    assert page.evaluate(kept)

    # The next window is a new offer.
    _inject(page, _buy_state(later, 2005, deadline + 10, turn=later["view"]["turn"] + 1))
    page.wait_for_selector("#buy-btn")
    assert not page.evaluate(kept)
    # Once the window closes the banner goes.
    _inject(page, {**later, "version": 2006})
    assert page.is_hidden("#buy")
    assert not page.js_errors, page.js_errors
    page.context.close()


# --------------------------------------------------------------------------- the other pages:
# the lobby, the replay viewer and the rules page, for the same players.

RECORD = Path(__file__).resolve().parent / "records" / "chico-game.json"  # Ana and Beto, 14 steps
CONTROLS = {"textbox", "combobox", "checkbox", "spinbutton", "button", "slider", "link",
            "ListBox", "searchbox"}

# The contrast of every text on the screen against what is under it (WCAG's formula; 4.5:1, or
# 3:1 for large text). Disabled controls are exempt; a text over an image (a card's gradient)
# is left to the eye.
_LOW_CONTRAST = (Path(__file__).resolve().parent / "low_contrast.js").read_text("utf-8")


def _unnamed_controls(page: Any) -> list[str]:
    """The controls a screen reader would announce without a name (Chromium's own tree)."""
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    cdp.detach()
    return [f"{n['role']['value']} #{n.get('backendDOMNodeId')}" for n in nodes
            if not n.get("ignored") and n.get("role", {}).get("value") in CONTROLS
            and not (n.get("name", {}).get("value") or "").strip()]


def _named(page: Any, role: str, name: str) -> bool:
    return bool(page.get_by_role(role, name=name, exact=True).count() == 1)


def _listen(page: Any, css: str) -> None:
    """Keep every text the live region ``css`` is given, in window.said."""
    page.evaluate("""(css) => {
        window.said = [];
        const el = document.querySelector(css);
        new MutationObserver(() => window.said.push(el.textContent))
            .observe(el, {childList: true, characterData: true, subtree: true});
    }""", css)


def _lobby(browser: Any, base_url: str, locale: str) -> Any:
    page = _page(browser, SMALL_PHONE, locale)
    page.goto(base_url + "/")
    page.wait_for_selector("#preset option", state="attached")
    return page


def test_every_lobby_control_has_a_name_in_the_pages_language(base_url: str,
                                                             browser: Any) -> None:
    """The rule options, the seat and bot selects, the match select, the card values: a
    screen reader names each in Spanish and in English; each is a finger's size on a 360 px
    screen, with the blue ring when Tab reaches it; no text is too pale to read."""
    words = {"es-CL": ("Tu nombre", "Código", "Reglas", "Asientos", "Partidas", "Asiento 2",
                       "Comprar la carta del pozo fuera de turno", "K (rey)", "comodín",
                       "Naipes", "Carioca: inicio"),
             "en-US": ("Your name", "Code", "Rules", "Seats", "Games", "Seat 2",
                       "Buy the pozo card out of turn", "K (king)", "joker", "Packs",
                       "Carioca: home")}
    for locale, (name, code, rules, seats, match, seat2, buying, king, joker, packs,
                 home) in words.items():
        page = _lobby(browser, base_url, locale)
        page.evaluate("() => document.querySelectorAll('details.group')"
                      ".forEach((d) => { d.open = true; })")
        assert _named(page, "textbox", name) and _named(page, "textbox", code)
        for select in (rules, seats, match, seat2, buying):
            assert _named(page, "combobox", select), select
        assert _named(page, "spinbutton", king) and _named(page, "spinbutton", joker)
        assert _named(page, "group", packs)  # its check box says only "automático"
        assert page.get_by_role("checkbox", name="1:", exact=False).count() >= 1  # a round
        assert _named(page, "link", home)  # the ♠♥ of a phone's header
        assert _unnamed_controls(page) == [], _unnamed_controls(page)
        assert not _small_targets(page), _small_targets(page)
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
        assert page.evaluate(_LOW_CONTRAST) == []
        page.evaluate("() => document.body.focus()")
        for css in ("#preset", 'details[data-group="rounds"] summary', 'input[name="round-1"]'):
            _tab_to(page, css)
            assert _focus_ring(page) == "solid", css
        assert not page.js_errors, page.js_errors
        page.context.close()


def test_the_lobby_says_what_is_missing_and_takes_the_focus_there(base_url: str,
                                                                 browser: Any) -> None:
    """No code, no name, a code with no table: each is said (role=alert) under its field,
    which takes the focus and is marked invalid; typing there takes the message away."""
    texts = {"es-CL": ("Escribe el código de la mesa", "Escribe tu nombre primero",
                       "No existe la mesa ZZZZZ9"),
             "en-US": ("Type the table's code", "Type your name first",
                       "There is no table ZZZZZ9")}
    for locale, (no_code, no_name, no_table) in texts.items():
        page = _lobby(browser, base_url, locale)
        page.evaluate("() => localStorage.removeItem('carioca.name')")
        page.fill("#name", "")
        assert page.get_attribute("#join-code-error", "role") == "alert"
        assert page.get_attribute("#name-error", "role") == "alert"
        page.focus("#join-code")
        page.keyboard.press("Enter")
        assert page.inner_text("#join-code-error") == no_code
        assert page.evaluate("() => document.activeElement.id") == "join-code"
        assert page.get_attribute("#join-code", "aria-invalid") == "true"
        page.keyboard.type("zzzzz9")
        assert page.is_hidden("#join-code-error")
        assert page.get_attribute("#join-code", "aria-invalid") is None
        page.keyboard.press("Enter")
        assert page.inner_text("#name-error") == no_name
        assert page.evaluate("() => document.activeElement.id") == "name"
        page.keyboard.type("Ana")
        assert page.is_hidden("#name-error")
        _tab_to(page, "#join-form button[type=submit]")
        page.keyboard.press("Enter")
        page.wait_for_selector("#join-code-error:not([hidden])")
        assert page.inner_text("#join-code-error") == no_table
        assert page.evaluate("() => document.activeElement.id") == "join-code"
        described = page.get_by_role("textbox", name=page.get_attribute("#join-code",
                                                                         "aria-label"))
        assert described.get_attribute("aria-describedby") == "join-code-error"
        assert page.evaluate(_LOW_CONTRAST) == []
        assert not page.js_errors, page.js_errors
        page.context.close()


def test_a_table_with_a_bot_is_made_and_joined_with_the_keyboard_alone(base_url: str,
                                                                      browser: Any) -> None:
    """On a 360 px phone, with Tab, the arrows and Enter only: Ana names herself, picks three
    seats and a bot for the second, and creates the table; the focus goes to the share panel,
    whose code is said; the link is copied and Enter goes to the table. Beto, at another
    phone, types the code and Enter sits him down."""
    page = _lobby(browser, base_url, "es-CL")
    _listen(page, "#said")
    page.evaluate("() => document.body.focus()")
    _tab_to(page, "#name")
    assert _focus_ring(page) == "solid"
    page.keyboard.press("Control+A")
    page.keyboard.type("Ana")
    _tab_to(page, "#seats")
    page.keyboard.press("ArrowUp")  # 4 → 3 seats
    assert page.input_value("#seats") == "3"
    _tab_to(page, 'select[name="bot-1"]')
    page.keyboard.press("ArrowDown")  # the first bot: Al azar
    assert page.input_value('select[name="bot-1"]') == "random"
    _tab_to(page, "#create-form button[type=submit]")
    assert _focus_ring(page) == "solid"
    page.keyboard.press("Enter")
    page.wait_for_selector("#created:not([hidden])")
    code = page.inner_text("#share-code").strip()
    assert page.evaluate("() => document.activeElement.id") == "created-title"
    assert _focus_ring(page) == "solid"
    assert page.evaluate("() => window.said") == ["Mesa lista. El código es " + " ".join(code)]
    assert page.get_attribute("#said", "role") == "status"
    assert _named(page, "textbox", "Comparte este enlace")
    assert not _small_targets(page), _small_targets(page)
    assert page.evaluate(_LOW_CONTRAST) == []
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "share-link"
    _tab_to(page, "#copy-link")
    page.keyboard.press("Enter")
    page.wait_for_selector(".toast.info")
    _tab_to(page, "#go-table")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/t/{code}")
    page.wait_for_selector("#start")
    # The bots' titles in Spanish come with the presets, which may answer after the table.
    page.wait_for_function("() => document.querySelector('#seats').innerText.includes('Al azar')")

    beto = _lobby(browser, base_url, "es-CL")
    beto.evaluate("() => document.body.focus()")
    _tab_to(beto, "#name")
    beto.keyboard.press("Control+A")
    beto.keyboard.type("Beto")
    beto.keyboard.press("Tab")
    assert beto.evaluate("() => document.activeElement.id") == "join-code"
    beto.keyboard.type(code.lower())
    beto.keyboard.press("Enter")
    beto.wait_for_url(f"**/t/{code}")
    beto.wait_for_selector(".seat.me")
    assert "Beto" in beto.inner_text(".seat.me")
    for p in (page, beto):
        assert not p.js_errors, p.js_errors
        p.context.close()


def test_the_replay_names_its_buttons_and_says_each_step(base_url: str, browser: Any) -> None:
    """The stepper's «, », slider and file picker have names in the page's language; each
    step drawn is said politely, its cards by name; the slider's arrow steps once; the focus
    stays on the page when a button it was on turns off; a bad file is said by role=alert."""
    names = {"es-CL": ("Primer paso", "Último paso", "Paso", "Paso 0 de 14", "Anotador",
                       "Ese archivo no es una partida en JSON"),
             "en-US": ("First step", "Last step", "Step", "Step 0 of 14", "Score sheet",
                       "That file is not a JSON game record")}
    for locale, (first, last, step, deal, sheet, bad) in names.items():
        page = _page(browser, SMALL_PHONE, locale)
        page.goto(base_url + "/replay")
        _listen(page, "#announce")
        assert page.get_attribute("#announce", "role") == "status"
        assert page.get_attribute("#error", "role") == "alert"
        page.set_input_files("#file", str(RECORD))
        page.wait_for_selector('#board[data-step="0"]')
        assert _named(page, "button", first) and _named(page, "button", last)
        assert _named(page, "slider", step)
        assert page.get_attribute("#slider", "aria-valuetext") == deal
        assert page.evaluate("() => window.said")[-1].startswith(deal + ". ")
        assert _named(page, "table", sheet)
        assert _unnamed_controls(page) == [], _unnamed_controls(page)
        assert not _small_targets(page), _small_targets(page)
        assert page.evaluate(_LOW_CONTRAST) == []

        _tab_to(page, "#next")
        assert _focus_ring(page) == "solid"
        page.keyboard.press("Enter")
        page.wait_for_selector('#board[data-step="1"]')
        said = page.evaluate("() => window.said")[-1]
        assert said.startswith(deal.replace("0", "1", 1) + ". "), said
        _tab_to(page, "#slider")
        page.keyboard.press("ArrowRight")  # one step, not two
        page.wait_for_selector('#board[data-step="2"]')
        assert page.input_value("#slider") == "2"
        _tab_to(page, "#last")
        page.keyboard.press("Enter")
        page.wait_for_selector('#board[data-step="14"]')
        assert page.evaluate("() => document.activeElement.id") == "slider"
        if locale == "es-CL":
            said = page.evaluate("() => window.said")[-1]
            assert said == "Paso 14 de 14. Ronda 2 · Ana bota 5 de corazones", said
            assert page.get_by_role("img", name="Ana se fue").count() == 1  # the ✓ in the sheet
        assert page.get_by_role("rowheader").count() == 2  # each round heads its row

        page.set_input_files("#file", files=[{"name": "notes.txt", "mimeType": "text/plain",
                                              "buffer": b"not json"}])
        page.wait_for_selector("#player", state="hidden")
        assert page.inner_text("#error") == bad
        assert page.query_selector(".toast") is None  # said once, by the alert
        assert not page.js_errors, page.js_errors
        page.context.close()


def test_the_rules_page_names_its_tables_and_keeps_its_headings_in_order(
        base_url: str, browser: Any) -> None:
    """The rounds' table is named by its heading; the headings go h1, h2, … without a
    jump; the text is not a live region (it would be read whole) but the rules shown are
    named politely; an error is said by role=alert."""
    for locale, rounds in (("es-CL", "Rondas"), ("en-US", "Rounds")):
        page = _page(browser, SMALL_PHONE, locale)
        page.goto(base_url + "/rules?preset=familia")
        page.wait_for_selector("#rules h1")
        assert _named(page, "table", rounds)
        levels = page.evaluate("() => [...document.querySelectorAll('h1, h2, h3, h4')]"
                               ".map((h) => +h.tagName[1])")
        steps = [b - a for a, b in zip(levels, levels[1:], strict=False)]
        assert levels[0] == 1 and all(step <= 1 for step in steps), levels
        assert page.get_attribute("#rules", "aria-live") is None
        assert page.inner_text("#said") == "Carioca: familia"
        _listen(page, "#said")
        page.evaluate("() => document.body.focus()")
        _tab_to(page, "#preset")
        assert _focus_ring(page) == "solid"
        page.keyboard.press("ArrowUp")  # the preset before familia: chico
        page.wait_for_function(
            "() => document.querySelector('#rules h1').innerText.endsWith('chico')")
        assert page.evaluate("() => window.said")[-1] == "Carioca: chico"
        assert _unnamed_controls(page) == [], _unnamed_controls(page)
        assert not _small_targets(page), _small_targets(page)
        assert page.evaluate(_LOW_CONTRAST) == []
        page.context.close()
    page = _page(browser, SMALL_PHONE, "es-CL")
    page.goto(base_url + "/rules?table=NOSUCH")
    page.wait_for_selector("#error:not([hidden])")
    assert page.get_attribute("#error", "role") == "alert"
    assert page.inner_text("#error") == "Esa mesa no existe"
    assert page.inner_text("#said") == ""
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_the_four_colour_switch_is_named_in_the_pages_language(
        base_url: str, browser: Any) -> None:
    """Every page's header has it: a screen reader says what it does, not "♠♥♦♣"."""
    for locale, name in (("es-CL", "Naipe de cuatro colores"), ("en-US", "Four-colour deck")):
        page = _lobby(browser, base_url, locale)
        assert _named(page, "checkbox", name)
        page.context.close()


def test_a_question_goes_when_the_table_moves_past_it(base_url: str, browser: Any) -> None:
    """The lay-off-or-swap question is open when a state comes in that allows neither move
    (here: the turn before, when Ana is not down yet): it closes rather than cover the board."""
    from test_web_pages import _trio_game

    created = _new_table(base_url)
    _, (before, later) = _trio_game()
    assert not any("agregar" in a or "swap" in a for a in before["legal"])
    page = _table_page(browser, base_url, created, "es-CL")
    _inject(page, later, forget_sent=True)
    _pick(page, "7D")
    page.click('.meld[data-meld="0"] .card[data-card="7H"]')
    page.wait_for_selector("#reveal[open]")
    _inject(page, {**later, "version": later["version"] + 1})  # nothing changed: it stays
    assert page.locator("#reveal").is_visible()
    _inject(page, {**before, "version": later["version"] + 2})
    page.wait_for_function("() => !document.querySelector('#reveal').open")
    assert _sent(page) == [] and not page.js_errors
    page.context.close()
