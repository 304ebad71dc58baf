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
    _fed_by_hand,
    _inject,
    _new_table,
    _page,
    _scripted_game,
    _state,
    base_url,
    browser,
)

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")
__all__ = ["base_url", "browser"]  # fixtures, shared with test_web_pages

SMALL_PHONE = {"width": 360, "height": 740}
TARGET = 40  # px: the least side of a control a finger is to hit


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
        page = _page(browser, SMALL_PHONE, locale)
        page.goto(f"{base_url}/t/{created['code']}?token={created['token']}")
        _fed_by_hand(page)
        _inject(page, before)
        assert page.get_attribute('#hand .card[data-card="QS"]', "aria-label") == queen
        assert page.get_attribute('#hand .card[data-card="10H"]', "aria-label") == ten
        assert page.get_attribute("#hand", "aria-label")  # "Tu mano"
        _inject(page, later)
        assert page.get_attribute(".meld .card.wild", "aria-label") == wild
        if locale == "es-CL":
            meld = page.get_attribute('.meld[data-meld="1"]', "aria-label")
            assert meld == ("1 · escala · Beto: 4 de tréboles, 5 de tréboles, "
                            "comodín, en lugar de 6 de tréboles, 7 de tréboles")
            pozo = page.get_attribute(".pile.pozo", "aria-label")
            top = later["view"]["pozo"][-1]
            words = page.get_attribute(f'.pile.pozo .card[data-card="{top}"]', "aria-label")
            count = len(later["view"]["pozo"])
            assert pozo == f"Pozo: {count} carta{'s' if count > 1 else ''}, arriba el {words}"
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
    page = _page(browser, SMALL_PHONE, "es-CL")
    page.goto(f"{base_url}/t/{created['code']}?token={created['token']}")
    _fed_by_hand(page)
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
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_the_live_region_says_what_was_played_and_whose_turn_it_is(base_url: str,
                                                                   browser: Any) -> None:
    """Against the random bot at a real table, with the keyboard alone: Enter on the mazo
    draws (and the page says which card came), Space and Enter on Descartar discard; the
    polite live region then says what each did and whose turn it is, "Al azar" included."""
    created = _new_table(base_url)
    page = _page(browser, SMALL_PHONE, "es-CL")
    page.goto(f"{base_url}/t/{created['code']}?token={created['token']}")
    page.wait_for_selector("#start")
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
    assert page.text_content("#announce").endswith("Tu turno: roba del mazo o del pozo")

    page.evaluate("() => document.body.focus()")
    _tab_to(page, ".pile.mazo")
    assert _focus_ring(page) == "solid"
    assert not _small_targets(page), _small_targets(page)
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.carioca.state.msg.view.phase === 'play'")
    drawn = page.text_content("#announce")
    assert drawn.startswith("Robaste el ") and drawn.endswith(
        "Bájate, agrega o descarta una carta"), drawn

    _tab_to(page, '#hand .card:not([data-card="JK"])')
    card = page.evaluate("() => document.activeElement.dataset.card")
    words = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Space")
    _tab_to(page, "#discard")
    page.keyboard.press("Enter")
    deadline = time.time() + 20
    while not any(s.endswith("Tu turno: roba del mazo o del pozo")
                  for s in page.evaluate("() => window.said")[1:]):
        assert time.time() < deadline, page.evaluate("() => window.said")
        page.wait_for_timeout(50)
    said = page.evaluate("() => window.said")
    assert f"Ana descarta {words}. Juega Al azar" in said, (card, said)
    assert any(s.startswith("Al azar ") for s in said), said  # the bot's moves, by its name
    assert not page.js_errors, page.js_errors
    page.context.close()
