"""The pages in a real browser: Playwright (Python) driving Debian's headless Chromium against
the server on loopback (uvicorn in a thread, a temporary SQLite file).

One whole game of one round is played through the page as a person would: create the table
in the lobby with bots, start it, draw from the mazo and the pozo, build the contract's melds
and bajarse, agregar by dragging a card onto a meld, discard (dragging to the pozo and with the
button), buy during the claim window, reload in the middle of a turn and carry on. Then the
record is downloaded and replayed to the same scores, and uploaded into the replay viewer.

Set ``CARIOCA_SCREENSHOTS=1`` to write the screenshots of ``docs/screenshots/``.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import socket
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
TAKE_SHOTS = os.environ.get("CARIOCA_SCREENSHOTS") == "1"

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")


# --------------------------------------------------------------------------- fixtures

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from carioca.server.app import create_app

    db = tmp_path_factory.mktemp("web") / "tables.sqlite"
    with _serving(create_app(db, bot_delay=0.02)) as url:
        yield url


@contextlib.contextmanager
def _serving(app: Any) -> Any:
    """``app`` served by uvicorn in a thread on a free loopback port: its address."""
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", ws_ping_interval=None))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not server.started:
        if time.time() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Any:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _page(browser: Any, size: dict[str, int] = PHONE, locale: str = "es-CL") -> Any:
    ctx = browser.new_context(viewport=size, locale=locale, accept_downloads=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    if os.environ.get("DEBUG_WEB"):
        page.on("console", lambda m: print("console:", m.text))
        page.on("websocket", lambda ws: print("websocket:", ws.url))
    page.js_errors = errors
    return page


def _shot(page: Any, name: str) -> None:
    if TAKE_SHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"table-{name}.png"))


def _state(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => {
        const S = window.carioca && window.carioca.state;
        if (!S) return {};
        const m = S.msg || {};
        return {seat: S.seat, table: S.table, version: m.version ?? null, legal: m.legal || [],
                view: m.view || null, can_undo: !!m.can_undo, round_end: m.round_end || null,
                deadlines: m.deadlines || null, hand: S.hand.map((x) => x.card)};
    }""")


def _wait_version(page: Any, old: int | None, timeout: float = 10) -> None:
    end = time.time() + timeout
    while time.time() < end:
        if _state(page).get("version") != old:
            return
        page.wait_for_timeout(40)
    toasts = page.inner_text("c-toast") if page.query_selector("c-toast") else ""
    pending = page.evaluate("() => JSON.stringify([window.carioca.state.pending,"
                            " window.carioca.state.errors.slice(-3),"
                            " window.carioca.state.trace.slice(-20)])")
    raise AssertionError(f"the table did not answer: toasts {toasts!r}, last move {pending}")


# --------------------------------------------------------------------------- helpers to play

def _card_in_hand(page: Any, card: str, skip: set[str] | None = None) -> Any:
    """A locator for one copy of ``card`` in the hand (by its id, which survives redraws)."""
    for el in page.query_selector_all(f'#hand .card[data-card="{card}"]'):
        ident = el.get_attribute("data-id")
        if skip is None or ident not in skip:
            loc = page.locator(f'#hand .card[data-id="{ident}"]')
            loc.ident = ident
            return loc
    raise AssertionError(f"{card} is not in the hand on the page")


def _drag_to(page: Any, source: Any, target: Any, fx: float = 0.5, fy: float = 0.5) -> None:
    """Drag ``source`` onto ``target`` (locators) at a fraction of the target's box. The hand
    stays at the bottom of the screen, so the target is scrolled into view first."""
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    _drag(page, source, box["x"] + box["width"] * fx, box["y"] + box["height"] * fy)


def _drag(page: Any, source: Any, x: float, y: float) -> None:
    box = source.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    steps = 8
    sx, sy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for i in range(1, steps + 1):
        page.mouse.move(sx + (x - sx) * i / steps, sy + (y - sy) * i / steps)
    page.mouse.up()


def _discard_choice(hand: list[str], legal: list[dict[str, Any]]) -> str:
    """A card to throw: a lone rank (no pair to build a trío on), the highest first."""
    may = [a["discard"] for a in legal if "discard" in a]
    counts = Counter(c[:-1] for c in hand if c != "JK")
    order = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]

    def key(card: str) -> tuple[int, int]:
        if card == "JK":
            return (9, 0)
        return (counts[card[:-1]], order.index(card[:-1]))

    return sorted(may, key=key)[0]


class Player:
    """Plays seat 0 through the page, and counts what it did."""

    def __init__(self, page: Any, base: str) -> None:
        self.page = page
        self.base = base
        self.done: Counter[str] = Counter()
        self.hand_before_buy: int | None = None

    def step(self) -> bool:
        """One move (or a wait); False once the game is over."""
        page = self.page
        if page.is_visible("#reveal-ok"):
            _shot_once(self, page, "round-end")
            page.click("#reveal-ok")
        st = _state(page)
        view = st.get("view")
        table = st.get("table") or {}
        if table.get("status") == "over" or (view and view["phase"] == "over"):
            return False
        if page.is_visible("#buy-btn"):
            if not self.done["buy"]:
                self.hand_before_buy = len(st["hand"])
                self.claimed_at = view["log_start"] + len(view["log"]) if view else None
                _shot_once(self, page, "buy")
                page.click("#buy-btn")
                self.done["buy"] += 1
            else:
                page.click("#pass-btn")
                self.done["pass"] += 1
            page.wait_for_timeout(60)
            return True
        if not view or view["to_act"] != st["seat"] or not st["legal"]:
            page.wait_for_timeout(60)
            return True
        if view["phase"] == "draw":
            self.draw(st)
        else:
            self.play(st)
        if os.environ.get("DEBUG_WEB"):
            sel = page.evaluate("() => [...window.carioca.state.selected].map("
                                "id => window.carioca.state.hand.find(x => x.id === id)?.card)")
            print("after", dict(self.done), "selected", sel)
        return True

    def draw(self, st: dict[str, Any]) -> None:
        page, view = self.page, st["view"]
        top = view["pozo"][-1] if view["pozo"] else None
        ranks = Counter(c[:-1] for c in st["hand"])
        may_pozo = {"p": st["seat"], "draw": "pozo"} in st["legal"]
        wants_pozo = top and top != "JK" and ranks[top[:-1]] >= 2 and may_pozo
        if wants_pozo or (not self.done["draw_pozo"] and self.done["draw_mazo"] >= 2):
            page.click(".pile.pozo")
            self.done["draw_pozo"] += 1
        else:
            if not self.done["draw_mazo"]:
                self.hint()
                _shot_once(self, page, "draw")
            page.click(".pile.mazo")
            self.done["draw_mazo"] += 1
        _wait_version(page, st["version"])

    def hint(self) -> None:
        """The coach's hint: an action and its reason, shown on the page."""
        page = self.page
        page.click("#hint")
        page.wait_for_selector("#hintbox:not([hidden]), .toast", timeout=15000)
        if page.is_visible("#hintbox"):
            assert len(page.inner_text("#hintbox")) > 10
            self.done["hint"] += 1

    def play(self, st: dict[str, Any]) -> None:
        page, view, legal, seat = self.page, st["view"], st["legal"], st["seat"]
        if not self.done["reload"]:
            self.reorder()
            self.reload(st)
            return
        bajar = [a for a in legal if "bajar" in a]
        if bajar and not view["down"][seat]:
            self.bajarse(st, bajar[0]["bajar"])
            return
        adds = [a["agregar"] for a in legal if "agregar" in a]
        if adds:
            self.agregar(st, adds[0])
            return
        card = _discard_choice(st["hand"], legal)
        el = _card_in_hand(page, card)
        if not self.done["discard_drag"]:
            _drag_to(page, el, page.locator(".pile.pozo"))
            self.done["discard_drag"] += 1
        else:
            sel = page.evaluate("() => [...window.carioca.state.selected].length")
            assert sel == 0, (sel, self.done, st["hand"])
            el.click()
            page.click("#discard")
        self.done["discard"] += 1
        _wait_version(page, st["version"])

    def reorder(self) -> None:
        """Drag the first card of the hand past the third: the hand keeps the new order."""
        page = self.page
        before = _state(page)["hand"]
        cards = page.query_selector_all("#hand .card")
        third = cards[2].bounding_box()
        _drag(page, cards[0], third["x"] + third["width"] * 0.8, third["y"] + third["height"] / 2)
        after = _state(page)["hand"]
        assert after == before[1:3] + before[:1] + before[3:], (before, after)
        self.done["reorder"] += 1

    def reload(self, st: dict[str, Any]) -> None:
        """Reload in the middle of the turn: the seat, the hand and the turn come back."""
        page = self.page
        page.reload()
        page.wait_for_selector("#hand .card")
        page.wait_for_function(
            "() => window.carioca.state.msg && window.carioca.state.msg.legal.length > 0")
        after = _state(page)
        assert after["seat"] == st["seat"]
        assert sorted(after["hand"]) == sorted(st["hand"])
        assert after["view"]["phase"] == "play" and after["view"]["to_act"] == st["seat"]
        assert "my-turn" in page.get_attribute("#status", "class")
        self.done["reload"] += 1

    def bajarse(self, st: dict[str, Any], melds: list[list[str]]) -> None:
        """Build each meld by selecting its cards and pressing "new meld", then bajarse."""
        page = self.page
        assert page.is_visible(".suggest button"), "the legal ways to bajarse are offered"
        assert page.inner_text(".contract-box .lacks").strip()
        _shot_once(self, page, "bajar")
        used: set[str] = set()
        for meld in melds:
            # A group keeps the order of the hand (round 1 asks for tríos: any order).
            for card in meld:
                el = _card_in_hand(page, card, used)
                used.add(el.ident)
                el.click()
            page.click("#new-meld")
        assert page.query_selector_all(".groups .group"), "the groups are shown"
        page.click("#bajarse")
        _wait_version(page, st["version"])
        after = _state(page)
        assert after["view"]["down"][st["seat"]], page.js_errors
        self.done["bajar"] += 1
        if not self.done["undo"] and after["can_undo"]:
            # Undo within the turn: the contract goes back to the hand; bajarse again next.
            page.click("#undo")
            _wait_version(page, after["version"])
            again = _state(page)
            assert not again["view"]["down"][st["seat"]]
            assert sorted(again["hand"]) == sorted(st["hand"])
            self.done["undo"] += 1

    def agregar(self, st: dict[str, Any], add: dict[str, Any]) -> None:
        page = self.page
        el = _card_in_hand(page, add["card"])
        meld = page.locator(f'.meld[data-meld="{add["meld"]}"]')
        if not self.done["agregar_drag"]:
            _drag_to(page, el, meld, 0.15 if add.get("end") == "low" else 0.85)
            self.done["agregar_drag"] += 1
        else:
            el.click()
            end = add.get("end")
            meld = f'.meld[data-meld="{add["meld"]}"]'
            page.locator(f"{meld} .end.{end}" if end else f"{meld} .label").click()
        if page.is_visible("#how-agregar"):  # the card may swap for the meld's joker too
            page.click("#how-agregar")
            self.done["agregar_asked"] += 1
        _wait_version(page, st["version"])
        self.done["agregar"] += 1


def _shot_once(player: Player, page: Any, name: str) -> None:
    if not player.done["shot:" + name]:
        player.done["shot:" + name] += 1
        _shot(page, name + "-phone")


# --------------------------------------------------------------------------- the tests

def test_lobby_create_play_a_round_reload_download_and_replay(base_url: str, browser: Any,
                                                               tmp_path: Path) -> None:
    from carioca.record import replay

    page = _page(browser)
    page.goto(base_url + "/")
    page.wait_for_selector("#preset option", state="attached")
    assert page.inner_text("h2") in ("Unirse con un código", "Crear una mesa")
    page.fill("#name", "Ana")
    page.select_option("#preset", "chile")
    page.select_option("#seats", "3")
    # Bots of a chosen level for the empty seats.
    page.select_option('select[name="bot-1"]', "random")
    page.select_option('select[name="bot-2"]', "random")
    # Change rules: one round only, buying with a penalty card, undo on.
    page.click('details[data-group="rounds"] summary')
    for n in range(2, 9):
        page.uncheck(f'input[name="round-{n}"]')
    page.click('details[data-group="stealing"] summary')
    page.select_option('select[name="buying"]', "penalty_card")
    page.select_option('select[name="steal_timer"]', "15")
    page.click('details[data-group="undo"] summary')
    page.check('input[name="undo"]')
    assert "3" in page.inner_text("#changed")
    _shot(page, "lobby-phone")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#created:not([hidden])")
    code = page.inner_text("#share-code").strip()
    assert len(code) == 6
    assert page.input_value("#share-link").endswith("/t/" + code)
    token = page.evaluate(f"() => localStorage.getItem('carioca.token.{code}')")
    assert token
    page.click("#go-table")
    page.wait_for_selector("#start")
    _shot(page, "seats-phone")
    names = [e.inner_text() for e in page.query_selector_all(".seat .name")]
    assert len(names) == 3 and "Ana" in names[0]

    # A spectator in another browser sees only what is public.
    watcher = _page(browser, DESKTOP, "en-US")
    watcher.goto(f"{base_url}/t/{code}")
    watcher.wait_for_selector(".seat")

    page.click("#start")
    page.wait_for_selector("#hand .card")
    info = json.loads(page.evaluate(f"() => fetch('/api/tables/{code}').then(r => r.text())"))
    assert info["options"]["buying"] == "penalty_card" and info["options"]["rounds"] == [1]

    watcher.wait_for_selector(".pile.mazo")
    assert watcher.is_visible("#spectator")
    assert not watcher.is_visible("#hand")
    assert _state(watcher)["view"]["hand"] is None
    _shot(watcher, "spectator-desktop")

    player = Player(page, base_url)
    end = time.time() + 420
    while player.step():
        assert time.time() < end, f"the round did not end: {player.done}"
        if player.done["bajar"] and not player.done["shot:desktop"]:
            player.done["shot:desktop"] += 1
            if TAKE_SHOTS:
                desk = _page(browser, DESKTOP)
                desk.add_init_script(f"localStorage.setItem('carioca.token.{code}', '{token}')")
                desk.goto(f"{base_url}/t/{code}")
                desk.wait_for_selector("#hand .card")
                desk.wait_for_timeout(300)
                _shot(desk, "play-desktop")
                desk.context.close()
    assert not page.js_errors, page.js_errors
    done = player.done
    assert done["bajar"] and done["discard"] and done["draw_mazo"] and done["reload"], done
    assert done["buy"] or done["pass"], done
    assert done["undo"], done

    # The end: the reveal, the score sheet with its chart, the record.
    page.wait_for_selector("#download")
    if page.is_visible("#reveal-ok"):
        _shot(page, "round-end-phone")
        page.click("#reveal-ok")
    assert page.query_selector("c-scoresheet svg.chart")
    _shot(page, "over-phone")
    with page.expect_download() as dl:
        page.click("#download")
    path = tmp_path / "record.json"
    dl.value.save_as(path)
    doc = json.loads(path.read_text())
    result = replay(doc)
    assert result.error is None
    moves = [a for r in doc["rounds"] for a in r["actions"]]
    if player.done["buy"]:
        # The claim waited for the player to draw, who has first claim (ruling 19): the
        # next move is Ana's buy, or that player's draw of the card from the pozo.
        after = doc["rounds"][0]["actions"][player.claimed_at]
        assert after == {"p": 0, "buy": True} or after.get("draw") == "pozo", after
    assert any(a["p"] == 0 and "bajar" in a for a in moves)
    assert any(a["p"] == 0 and "agregar" in a for a in moves) == bool(done["agregar"])
    shown = _state(page)["view"]["sheet"]
    assert result.game is not None
    assert list(result.game.score_sheet().totals) == shown["totals"]
    page_totals = [int(td.inner_text()) for td in
                   page.query_selector_all("#sheet tfoot td")[1:]]
    assert page_totals == shown["totals"]

    # The host can rematch: a new game with the same seats and rules.
    page.click("#rematch")
    page.wait_for_function("() => window.carioca.state.table.status === 'playing'"
                           " && window.carioca.state.table.game === 1")
    page.wait_for_selector("#hand .card")

    # The replay viewer steps through the same record to the same scores.
    page.goto(base_url + "/replay")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#player:not([hidden])")
    steps = int(page.get_attribute("#slider", "max"))
    assert steps == sum(len(r["actions"]) for r in doc["rounds"])
    page.wait_for_selector("#board .pile")
    page.click("#next")
    page.wait_for_function("() => document.querySelector('#where').textContent.includes('1')")
    assert page.inner_text("#action").strip()
    page.click("#last")
    # The step's number shows at once; its view (and sheet) once the server has sent it.
    page.wait_for_selector(f'#board[data-step="{steps}"]')
    totals = [int(td.inner_text()) for td in page.query_selector_all("#sheet tfoot td")[1:]]
    assert totals == shown["totals"]
    page.evaluate(f"() => {{ const s = document.querySelector('#slider'); s.value = '{steps // 2}';"
                  " s.dispatchEvent(new Event('input')); }")
    page.wait_for_timeout(300)
    _shot(page, "replay-phone")
    assert not page.js_errors, page.js_errors
    page.context.close()
    watcher.context.close()


def test_language_and_four_colour_deck_are_remembered(base_url: str, browser: Any) -> None:
    page = _page(browser, DESKTOP, "en-US")
    page.goto(base_url + "/")
    page.wait_for_selector("#preset option", state="attached")
    assert page.inner_text("#create-panel h2") == "Create a table"
    page.select_option("c-settings select", "de")
    assert page.inner_text("#create-panel h2") == "Tisch erstellen"
    page.select_option("c-settings select", "sv")
    assert page.inner_text("#create-panel h2") == "Skapa ett bord"
    page.check("c-settings input[type=checkbox]")
    page.reload()
    page.wait_for_selector("#preset option", state="attached")
    assert page.inner_text("#create-panel h2") == "Skapa ett bord"
    assert "four-colour" in page.get_attribute("body", "class")
    _shot(page, "lobby-desktop")
    colour = page.evaluate(
        "() => getComputedStyle(document.querySelector('c-settings .s-D')).color")
    assert colour == "rgb(11, 92, 173)"  # diamonds blue in the four-colour deck
    page.context.close()
    # Spanish by default for a Spanish-speaking browser.
    page = _page(browser, PHONE, "es-ES")
    page.goto(base_url + "/")
    assert page.inner_text("#create-panel h2") == "Crear una mesa"
    page.context.close()


def test_join_by_code_and_errors_in_a_toast(base_url: str, browser: Any) -> None:
    host = _page(browser, DESKTOP, "en-US")
    host.goto(base_url + "/")
    host.wait_for_selector("#preset option", state="attached")
    host.fill("#name", "Host")
    host.select_option("#seats", "2")
    host.click('details[data-group="turn"] summary')
    host.select_option('select[name="turn_timer"]', "30")
    host.click("#create-form button[type=submit]")
    host.wait_for_selector("#created:not([hidden])")
    code = host.inner_text("#share-code").strip()
    host.click("#go-table")
    host.wait_for_selector("#start")

    guest = _page(browser, PHONE, "es-CL")
    guest.goto(base_url + "/")
    guest.fill("#name", "Beto")
    guest.fill("#join-code", code.lower())
    guest.click("#join-form button[type=submit]")
    guest.wait_for_url(f"**/t/{code}")
    guest.wait_for_selector(".seat.me")
    assert "Beto" in guest.inner_text(".seat.me")
    # The host sees the guest connected.
    host.wait_for_function("() => document.querySelectorAll('.seat .dot.on').length === 2")
    # The host is told to start; the guest, to wait for the host.
    assert "Press Start" in host.inner_text("#status")  # the host reads English
    assert "Esperando que el anfitrión" in guest.inner_text("#status")
    # A link with a pass this table does not know: told, in Spanish, that it watches; the page
    # forgets the pass and offers a seat.
    stale = _page(browser, PHONE, "es-CL")
    stale.goto(f"{base_url}/t/{code}?token=not-a-pass")
    stale.wait_for_selector(".toast")
    assert "no es de esta mesa" in stale.inner_text(".toast")
    assert stale.evaluate(f"() => localStorage.getItem('carioca.token.{code}')") is None
    assert stale.is_visible("#join") and _state(stale)["seat"] is None
    assert not stale.js_errors, stale.js_errors
    stale.context.close()
    host.click("#start")
    guest.wait_for_selector("#hand .card")
    host.wait_for_selector("#hand .card")
    # The turn timer counts down for both; the page tells the player whose turn it is what
    # happens when it runs out, and only them.
    st = _state(guest)
    other = host if st["view"]["to_act"] != st["seat"] else guest
    waiting = guest if other is host else host
    for p in (host, guest):
        p.wait_for_selector("#timer c-countdown")
    assert "mazo" in other.inner_text("#timer")
    assert "mazo" not in waiting.inner_text("#timer")
    # An out-of-turn move is refused by the server; the page says so in the player's words.
    waiting.evaluate("() => window.carioca.act({draw: 'mazo'})")
    waiting.wait_for_selector(".toast")
    text = waiting.inner_text(".toast")
    assert ("turno" in text) if waiting is guest else ("turn" in text)
    # The connection drops: the page says so, comes back by itself and keeps the seat.
    guest.evaluate("() => window.carioca.state.ws.close()")
    guest.wait_for_selector("#conn:not([hidden])")
    guest.wait_for_selector("#conn", state="hidden", timeout=15000)
    assert _state(guest)["seat"] == st["seat"]
    assert _state(guest)["hand"]
    # A join to a started table is refused and offers to watch.
    late = _page(browser, PHONE, "en-US")
    late.goto(base_url + "/")
    late.fill("#name", "Late")
    late.fill("#join-code", code)
    late.click("#join-form button[type=submit]")
    late.wait_for_url(f"**/t/{code}", timeout=10000)
    late.wait_for_selector("#spectator:not([hidden])")
    for p in (host, guest, late):
        assert not p.js_errors, p.js_errors
        p.context.close()


def test_joining_again_from_the_home_page_goes_back_to_the_same_seat(
        base_url: str, browser: Any) -> None:
    """Beto joins by code, closes the tab, and joins by code again from the same phone: he is
    back in his seat, not given a second one that would sit empty and hold the game up."""
    created = _call(base_url, "/api/tables", {"name": "Ana", "preset": "chile", "seats": 3})
    code = created["code"]
    guest = _page(browser, PHONE, "es-CL")
    for _ in range(2):
        guest.goto(base_url + "/")
        guest.fill("#name", "Beto")
        guest.fill("#join-code", code)
        guest.click("#join-form button[type=submit]")
        guest.wait_for_url(f"**/t/{code}")
        guest.wait_for_selector(".seat.me")
        assert _state(guest)["seat"] == 1
    seats = _call(base_url, f"/api/tables/{code}")["seats"]
    assert [s["name"] for s in seats if s["taken"]] == ["Ana", "Beto"]
    assert not guest.js_errors
    guest.context.close()


def test_a_seat_taken_a_moment_before_says_so_not_that_the_table_is_full(
        base_url: str, browser: Any) -> None:
    """Two visitors press "Sit here" on the same seat: the second is told that seat is
    taken (the other seat is free still), not that the table is full or has started."""
    code = _call(base_url, "/api/tables", {"name": "Ana", "preset": "chile", "seats": 3})["code"]
    page = _page(browser, DESKTOP, "es-CL")
    page.goto(f"{base_url}/t/{code}")
    page.wait_for_function("() => { const S = window.carioca.state;"
                           " return S.table && S.ws && S.ws.readyState === 1; }")
    page.evaluate("""() => { const S = window.carioca.state; const real = S.ws;
        S.ws = { readyState: 1, send() {}, close() {} }; real.close(); }""")  # the page lags
    _call(base_url, f"/api/tables/{code}/join", {"name": "Beto", "seat": 1})
    page.fill("#join-name", "Caro")
    page.locator(".seat").nth(1).get_by_role("button").first.click()
    page.wait_for_selector(".toast")
    assert "Ese asiento está ocupado" in page.inner_text(".toast")
    assert not page.js_errors
    page.context.close()


def _scripted_game(beto_hand: str = "7H 7S 7D 4C 5C JK 7C 9S 10D QH KD 2H",
                   ana_hand: str = "QS QD QC 8H 9H 10H JH 6C 3C 8C 2S 4D",
                   beto_melds: str = "7H 7S 7D / 4C 5C JK 7C") -> tuple[Any, list[dict[str, Any]]]:
    """A game at two moments of Ana's turns (seat 0): before her bajar, and a turn later with
    Beto's escala 4C 5C JK 7C on the table (JK stands for 6C) and 6C, 3C and 8C in her hand.
    Other hands and melds for Beto (``beto_melds``, from ``beto_hand``) set other tables."""
    from carioca.actions import Action
    from carioca.cards import deck, parse_cards
    from carioca.engine import Deal, Game
    from carioca.rules import RuleSet

    beto = parse_cards(beto_hand)
    ana = parse_cards(ana_hand)
    pozo = parse_cards("KC")
    rest = Counter(deck(2, 2))
    rest.subtract(beto + ana + pozo)
    game = Game(RuleSet.preset("chile", rounds=[2]), ["Ana", "Beto"])
    game.start_round(Deal((tuple(ana), tuple(beto)), tuple(pozo), tuple(sorted(rest.elements()))))
    moments = []
    script = [("draw mazo", 1), (f"bajar {beto_melds}", 1), ("discard 9S", 1),
              ("draw mazo", 0), None, ("bajar QS QD QC / 8H 9H 10H JH", 0), ("discard 2S", 0),
              ("draw mazo", 1), ("discard 10D", 1), ("draw mazo", 0), None]
    for step in script:
        if step is None:
            moments.append({
                "type": "state", "version": 1000 + len(moments),
                "view": game.view(0).to_json(),
                "legal": [a.to_json() for a in game.legal_actions(0)],
                "deadlines": {"turn": None, "buy": None}, "fair": None, "can_undo": False,
                "round_end": None,
            })
        else:
            game.apply(Action.parse(step[0], step[1]))
    return game, moments


def _trio_game() -> tuple[Any, list[dict[str, Any]]]:
    """The scripted game with Beto's trío 7H 7S JK and escala 4C 5C 6C 7C: a turn later Ana's
    7D may be laid off on the trío or swapped for its joker (both are legal), and her 3C and
    8C go on the escala's ends."""
    return _scripted_game(beto_hand="7H 7S JK 4C 5C 6C 7C 9S 10D QH KD 2H",
                          ana_hand="QS QD QC 8H 9H 10H JH 7D 3C 8C 2S 4D",
                          beto_melds="7H 7S JK / 4C 5C 6C 7C")


def _new_table(base_url: str) -> dict[str, Any]:
    """A 2-seat `chile` table of Ana (seat 0) and a random bot, made over HTTP."""
    import urllib.request

    req = urllib.request.Request(
        base_url + "/api/tables", method="POST", headers={"Content-Type": "application/json"},
        data=json.dumps({"name": "Ana", "preset": "chile", "seats": 2,
                         "bots": {"1": "random"}}).encode())
    return json.load(urllib.request.urlopen(req))  # type: ignore[no-any-return]


def _fed_by_hand(page: Any) -> None:
    """Wait for the page to take seat 0 and the server's first state, then cut the server off:
    the page sends into ``window.sent`` and the test gives it the states (the engine's own
    views) with :func:`_inject`. A state or table message from the server arriving after an
    injected one would replace it (CI saw the hand emptied under a test), so the real socket
    is closed, and the page's closing handler, seeing another socket, does not reconnect. The
    page's keep-alive pings are dropped: they are not moves, and a slow run would count them."""
    page.wait_for_function("""() => { const S = window.carioca.state;
        return S.seat === 0 && S.msg && S.ws && S.ws.readyState === 1; }""")
    page.evaluate("""() => {
        const S = window.carioca.state;
        window.sent = [];
        const real = S.ws;
        const send = (text) => {
            const msg = JSON.parse(text);
            if (msg.type !== 'ping') window.sent.push(msg);
        };
        S.ws = { readyState: 1, send, close() {} };
        real.close();
        S.table.status = 'playing';
    }""")


def _inject(page: Any, msg: dict[str, Any], forget_sent: bool = False) -> None:
    msg = {**msg, "table": _state(page)["table"]}
    clear = "window.sent = []; " if forget_sent else ""
    page.evaluate(f"(m) => {{ {clear}window.carioca.receive(m); }}", msg)


def test_melds_built_in_order_swap_and_escala_ends(base_url: str, browser: Any) -> None:
    """The page turns clicks and drags into the right actions: groups in the order of the
    hand (escalas low to high), a swap by clicking the joker, agregar at the low and the high
    end of an escala. The states are the engine's own views, injected into a real page."""
    created = _new_table(base_url)
    _, (before, later) = _scripted_game()
    page = _page(browser, DESKTOP, "es-CL")
    page.goto(f"{base_url}/t/{created['code']}?token={created['token']}")
    _fed_by_hand(page)
    assert "token" not in page.url  # the token leaves the address bar for localStorage

    def inject(msg: dict[str, Any]) -> None:
        _inject(page, msg, forget_sent=True)

    def sent() -> list[dict[str, Any]]:
        return page.evaluate("() => window.sent")

    def card(c: str) -> Any:
        return _card_in_hand(page, c)

    # Bajarse: the escala is grouped in the order of the hand (sorted by suit: 8H 9H 10H JH).
    inject(before)
    page.click("#sort-suit")
    for c in ("JH", "9H", "10H", "8H"):
        card(c).click()
    page.click("#new-meld")
    assert page.inner_text(".groups .group .kind") == "escala"
    for c in ("QC", "QS", "QD"):
        card(c).click()
    page.click("#bajarse")
    (msg,) = sent()
    assert msg["type"] == "action" and msg["version"] == before["version"]
    assert msg["action"] == {"p": 0, "bajar": [["8H", "9H", "10H", "JH"], ["QS", "QD", "QC"]]}

    # A turn later: swap 6C for the joker by selecting it and clicking the joker.
    inject(later)
    card("6C").click()
    page.click('.meld[data-meld="1"] .card.wild')
    assert sent()[-1]["action"] == {"p": 0, "swap": {"card": "6C", "meld": 1}}
    _shot(page, "melds-desktop")

    # Agregar 3C at the low end by selecting it and clicking the low end of the escala.
    inject({**later, "version": later["version"] + 1})
    page.evaluate("() => { window.carioca.state.selected.clear(); window.carioca.render(); }")
    card("3C").click()
    page.click('.meld[data-meld="1"] .end.low')
    assert sent()[-1]["action"] == {"p": 0, "agregar": {"card": "3C", "meld": 1, "end": "low"}}

    # Agregar 8C by dragging it onto the escala (it fits only at the high end).
    inject({**later, "version": later["version"] + 2})
    page.evaluate("() => { window.carioca.state.selected.clear(); window.carioca.render(); }")
    _drag_to(page, card("8C"), page.locator('.meld[data-meld="1"]'), 0.8)
    assert sent()[-1]["action"] == {"p": 0, "agregar": {"card": "8C", "meld": 1, "end": "high"}}

    # Discard by dragging a card onto the pozo.
    inject({**later, "version": later["version"] + 3})
    _drag_to(page, card("4D"), page.locator(".pile.pozo"))
    assert sent()[-1]["action"] == {"p": 0, "discard": "4D"}
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_staged_groups_survive_a_reload_and_stale_ones_are_dropped(base_url: str,
                                                                   browser: Any) -> None:
    """Groups built for bajar but not laid down yet come back after a reload (the same seat,
    table and round), on the same copies of twin cards (two decks), and can be laid down. A
    stored group whose cards are no longer all in the hand is dropped; another round's or
    another seat's groups are not restored; a bajar that went through forgets them."""
    created = _new_table(base_url)
    _, (before, later) = _scripted_game()
    twin = copy.deepcopy(before)  # two decks: a second QS in Ana's hand, in place of 2S
    hand = twin["view"]["hand"]
    hand[hand.index("2S")] = "QS"
    no_qc = copy.deepcopy(twin)  # the same round with QC gone from the hand
    no_qc["view"]["hand"].remove("QC")
    other_round = copy.deepcopy(twin)
    other_round["view"]["round"] = twin["view"]["round"] + 1
    key = f"carioca.groups.{created['code']}"
    page = _page(browser, DESKTOP, "es-CL")
    page.goto(f"{base_url}/t/{created['code']}?token={created['token']}")
    _fed_by_hand(page)
    versions = iter(range(2000, 3000))

    def inject(msg: dict[str, Any]) -> None:
        _inject(page, {**msg, "version": next(versions)})

    def reload_with(msg: dict[str, Any]) -> None:
        page.reload()
        _fed_by_hand(page)
        inject(msg)

    def staged() -> list[list[list[Any]]]:
        """The staged groups: each card and its place in the hand on the page."""
        return page.evaluate("""() => {
            const S = window.carioca.state;
            const place = (id) => [...document.querySelectorAll('#hand .card')]
                .findIndex((el) => el.dataset.id === String(id));
            return S.groups.map((g) => g.map((id) => [S.hand.find((x) => x.id === id).card,
                                                       place(id)]));
        }""")

    def grouped_places() -> list[int]:
        cards = page.query_selector_all("#hand .card")
        return [i for i, el in enumerate(cards) if "grouped" in el.get_attribute("class")]

    def stage(cards: list[str], copy_of: dict[str, int] | None = None) -> None:
        for c in cards:
            copies = page.query_selector_all(f'#hand .card[data-card="{c}"]')
            ident = copies[(copy_of or {}).get(c, 0)].get_attribute("data-id")
            page.click(f'#hand .card[data-id="{ident}"]')
        page.click("#new-meld")

    # Stage the trío with the second of the two QS, and the escala.
    inject(twin)
    stage(["QS", "QD", "QC"], {"QS": 1})
    stage(["8H", "9H", "10H", "JH"])
    shown = staged()
    places = grouped_places()
    assert len(shown) == 2 and len(places) == 7
    queens = [i for i, el in enumerate(page.query_selector_all("#hand .card"))
              if el.get_attribute("data-card") == "QS"]
    assert len(queens) == 2 and queens[1] in places and queens[0] not in places

    # A reload: the same groups, on the same cards, and they can be laid down.
    reload_with(twin)
    assert staged() == shown
    assert grouped_places() == places
    assert len(page.query_selector_all(".groups .group")) == 2
    page.click("#bajarse")
    (legal,) = [a["bajar"] for a in twin["legal"] if "bajar" in a]
    sent = [m["action"] for m in page.evaluate("() => window.sent") if m.get("action")]
    assert sent == [{"p": 0, "bajar": [[c for c, _ in g] for g in shown]}]
    assert sorted(map(sorted, sent[0]["bajar"])) == sorted(map(sorted, legal))
    # The bajar went through: nothing is staged, nor stored.
    inject(later)
    assert staged() == [] and not page.query_selector(".groups")
    assert page.evaluate(f"() => sessionStorage.getItem('{key}')") is None
    reload_with(twin)
    assert staged() == []

    # Stage both again; QC leaves the hand before the reload: only the escala comes back.
    stage(["QS", "QD", "QC"])
    stage(["8H", "9H", "10H", "JH"])
    reload_with(no_qc)
    assert [[c for c, _ in g] for g in staged()] == [["8H", "9H", "10H", "JH"]]
    assert len(page.query_selector_all(".groups .group")) == 1
    stored = page.evaluate(f"() => sessionStorage.getItem('{key}')")
    assert stored

    # Another round: nothing is restored, and the stored groups are forgotten.
    reload_with(other_round)
    assert staged() == [] and not page.query_selector(".groups")
    assert page.evaluate(f"() => sessionStorage.getItem('{key}')") is None

    # Another seat's groups are not this seat's (the same stored groups are, as a check).
    mine = json.loads(stored)
    for seat, restored in ((1, 0), (0, 1)):
        page.evaluate("([k, v]) => sessionStorage.setItem(k, v)",
                      [key, json.dumps({**mine, "seat": seat})])
        reload_with(no_qc)
        assert len(staged()) == restored, seat
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_a_double_tap_draws_once_and_a_drag_orders_one_hand_only(base_url: str,
                                                                  browser: Any) -> None:
    """A second tap on the pozo just after drawing is not a discard of the card picked while
    waiting; a hand ordered by dragging stays so, and the next deal is sorted as the player
    last chose. On a 360 × 640 phone the hand keeps to the lower part of the screen."""
    from carioca.actions import Discard, Draw
    from carioca.engine import Game
    from carioca.rules import RuleSet

    created = _new_table(base_url)
    game = Game.new(RuleSet.preset("chile"), ["Ana", "Beto"], seed=4)
    game.apply(Draw(1, "mazo"))
    game.apply(Discard(1, game.hand(1)[0]))

    def moment(version: int, g: Game, round_number: int = 1) -> dict[str, Any]:
        view = g.view(0).to_json()
        view["round"] = round_number
        return {"type": "state", "version": version, "view": view,
                "legal": [a.to_json() for a in g.legal_actions(0)],
                "deadlines": {"turn": None, "buy": None}, "fair": None, "can_undo": False,
                "round_end": None}

    to_draw = moment(500, game)
    game.apply(Draw(0, "pozo"))
    drawn = moment(501, game)
    page = _page(browser, {"width": 360, "height": 640})
    page.goto(f"{base_url}/t/{created['code']}?token={created['token']}")
    _fed_by_hand(page)

    def inject(msg: dict[str, Any]) -> None:
        _inject(page, msg)

    inject(to_draw)
    page.click("#sort-suit")
    _card_in_hand(page, str(game.hand(0)[3])).click()  # picked while deciding
    page.click(".pile.pozo")
    inject(drawn)
    page.click(".pile.pozo")  # the same tap, repeated
    actions = [m["action"] for m in page.evaluate("() => window.sent") if m.get("action")]
    assert actions == [{"p": 0, "draw": "pozo"}]
    panel = page.locator("#me").bounding_box()
    assert panel is not None and panel["height"] <= 0.55 * 640

    # A drag orders this hand; the next deal comes sorted by suit, as last chosen.
    hand = lambda: page.evaluate(  # noqa: E731
        "() => [...document.querySelectorAll('#hand .card')].map(c => c.dataset.card)")
    first, last = hand()[0], hand()[-1]
    _drag_to(page, _card_in_hand(page, first), page.locator(f'#hand .card[data-card="{last}"]'),
             0.9)
    dragged = hand()
    assert dragged.index(first) >= len(dragged) - 2  # moved from the front to the end
    inject({**drawn, "version": 502})
    assert hand() == dragged  # the same hand keeps the player's order
    page.reload()  # and so does a reload of the page
    _fed_by_hand(page)
    inject({**drawn, "version": 600})
    assert hand() == dragged
    other = Game.new(RuleSet.preset("chile"), ["Ana", "Beto"], seed=9)
    inject(moment(503, other, round_number=2))
    suits = [c[-1] for c in hand() if c != "JK"]
    assert suits == sorted(suits, key="SHDC".index)
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_the_lobby_fits_a_360_px_phone_with_every_bot_chosen(base_url: str,
                                                              browser: Any) -> None:
    for lang in ("es-CL", "de-DE"):
        page = _page(browser, {"width": 360, "height": 740}, lang)
        page.goto(base_url + "/")
        page.wait_for_selector("#preset option", state="attached")
        page.select_option("#seats", "6")
        for seat in range(1, 6):
            page.select_option(f'select[name="bot-{seat}"]', "campeon")
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
        assert not page.js_errors, page.js_errors
        page.context.close()


def test_a_german_table_speaks_german_only(base_url: str, browser: Any) -> None:
    """Errors, the coach, the presets' notes, the bots' names and the replay viewer, all in
    German: no English sentence of the server's mixed in."""
    import urllib.request

    from carioca.coach import _WORDS  # the coach's own sentences

    body = json.dumps({"name": "Ana", "preset": "chile", "seats": 2, "bots": {"1": "chela"},
                       "options": {"rounds": [1]}}).encode()
    request = urllib.request.Request(base_url + "/api/tables", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        made = json.loads(answer.read())
    page = _page(browser, PHONE, "de-DE")
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.goto(base_url + "/")
    page.wait_for_selector("#preset option", state="attached")
    assert page.inner_text("#preset-notes").startswith("Der chilenische Standard")
    page.evaluate(f"() => localStorage.setItem('carioca.token.{made['code']}', '{made['token']}')")
    page.goto(f"{base_url}/t/{made['code']}")
    page.wait_for_selector("#start")
    assert "Tía Chela" in page.inner_text(".seat:not(.me) .name")  # the bot's title
    page.click("#start")
    page.wait_for_function("() => (window.carioca.state.msg || {}).legal?.length > 0")
    hand = _state(page)["hand"]
    page.evaluate(f"() => window.carioca.act({{discard: '{hand[0]}'}})")  # before drawing
    page.wait_for_selector(".toast")
    assert page.inner_text(".toast") == "Zieh zuerst eine Karte vom Mazo oder Pozo"
    # The keyboard keeps its place when the page is drawn anew: Space selects a card, and
    # the focus stays on it.
    first = page.locator("#hand .card").first
    card_id = first.get_attribute("data-id")
    first.focus()
    page.keyboard.press("Space")
    page.wait_for_selector(f'#hand .card.selected[data-id="{card_id}"]')
    assert page.evaluate("() => document.activeElement.dataset.id") == card_id
    assert page.get_attribute(f'#hand [data-id="{card_id}"]', "aria-pressed") == "true"
    page.click("#hint")
    page.wait_for_selector("#hintbox:not([hidden])")
    reason = page.inner_text("#hintbox").split("— ", 1)[1]
    openings = [v.split("{")[0] for k, v in _WORDS["de"].items() if k.startswith("draw")]
    assert any(reason.startswith(o) for o in openings if o), reason

    page.goto(base_url + "/replay")
    page.set_input_files("#file", files=[{"name": "x.json", "mimeType": "application/json",
                                          "buffer": b'{"format": "x"}'}])
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == "Die Datei ist keine Partie"
    assert page.is_hidden("#player")  # nothing to step through
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"]  # the file picker does not push the page sideways
    assert not console and not page.js_errors, (console, page.js_errors)
    page.context.close()


def test_the_replay_viewer_follows_the_step_fits_a_phone_and_drops_a_bad_file(
        base_url: str, browser: Any, tmp_path: Path) -> None:
    """Eight players on a 360 px phone: the sheet scrolls inside its box, not the page; the
    sheet is the one of the step shown (no winner at the deal); a file that is not a record,
    loaded after a good one, takes the good one off the screen."""
    from carioca.lab import play_game
    from carioca.record import to_record
    from carioca.rules import RuleSet

    game = play_game(RuleSet.preset("chile", rounds=[1]), ["greedy"] * 8, seed=5,
                     bot_seeds=range(8))
    path = tmp_path / "eight.json"
    path.write_text(json.dumps(to_record(game)))
    page = _page(browser, {"width": 360, "height": 740})
    page.goto(base_url + "/replay")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#player:not([hidden])")
    page.wait_for_selector("#board .pile")
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    assert len(page.query_selector_all("#sheet thead th")) == 9
    assert page.query_selector("#sheet .winner") is None  # the deal: nobody has won yet
    page.click("#last")
    page.wait_for_selector("#sheet .winner")
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    page.click("#first")
    page.wait_for_function("() => !document.querySelector('#sheet .winner')")
    # A step that takes the pozo card names it, as the log under it does.
    log = game.view(None).log
    step, taken = next((i + 1, e["card"]) for i, e in enumerate(log) if e.get("draw") == "pozo")
    for _ in range(step):
        page.click("#next")
    shown = taken[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[taken[-1]]
    page.wait_for_function("(words) => document.querySelector('#action').textContent"
                           ".endsWith(words)", arg=f"saca {shown} del pozo")

    page.set_input_files("#file", files=[{"name": "notes.txt", "mimeType": "text/plain",
                                          "buffer": b"not json"}])
    page.wait_for_selector("#player", state="hidden")
    assert page.inner_text("#error") == "Ese archivo no es una partida en JSON"
    assert page.query_selector("#sheet table") is None
    page.keyboard.press("ArrowRight")  # nothing to step through, and no error
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_an_option_that_may_be_null_has_its_own_word(base_url: str, browser: Any) -> None:
    """instant_out_score is null in chile ("as going out"); unticking it offers -10, and the
    table is made with the number."""
    page = _page(browser, DESKTOP, "es-CL")
    page.goto(base_url + "/")
    page.wait_for_selector("#preset option", state="attached")
    page.fill("#name", "Ana")
    page.click('details[data-group="scoring"] summary')
    same = page.locator('input[name="instant_out_score-null"]')
    number = page.locator('input[name="instant_out_score"]')
    assert same.is_checked() and number.is_disabled()
    assert "como irse" in page.inner_text('details[data-group="scoring"]')
    same.uncheck()
    assert number.input_value() == "-10" and number.get_attribute("min") == "-1000"
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#created:not([hidden])")
    code = page.inner_text("#share-code").strip()
    info = json.loads(page.evaluate(f"() => fetch('/api/tables/{code}').then(r => r.text())"))
    assert info["options"]["instant_out_score"] == -10
    assert info["options"].get("max_reshuffles") is None  # RULES.md: reshuffle as needed
    assert not page.js_errors, page.js_errors
    page.context.close()


def _call(base_url: str, path: str, body: dict[str, Any] | None = None,
          token: str | None = None) -> dict[str, Any]:
    """A call to the table's HTTP API (POST with a body, GET without)."""
    import urllib.request

    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Carioca-Token"] = token
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base_url + path, data=data, headers=headers,
                                 method="GET" if body is None else "POST")
    with urllib.request.urlopen(req) as answer:
        return json.loads(answer.read())  # type: ignore[no-any-return]


def _bots_play_a_game(base_url: str, code: str, token: str, how: str) -> dict[str, Any]:
    """Start the game (``how``: start or rematch), a bot plays for Ana (who is away) as for
    the other seat, until the game is over: the table's info then."""
    info = _call(base_url, f"/api/tables/{code}", None)
    deadline = time.time() + 20
    while info["seats"][0]["connected"]:  # Ana's page has just closed
        assert time.time() < deadline, "Ana's page is still connected"
        time.sleep(0.05)
        info = _call(base_url, f"/api/tables/{code}", None)
    _call(base_url, f"/api/tables/{code}/{how}", {}, token)
    _call(base_url, f"/api/tables/{code}/stand-in", {"seat": 0, "bot": "greedy"}, token)
    deadline = time.time() + 60
    while True:
        info = _call(base_url, f"/api/tables/{code}", None)
        if info["status"] == "over":
            return info
        assert time.time() < deadline, "the game did not end"
        time.sleep(0.05)


def _end_panel(browser: Any, base_url: str, code: str, token: str) -> tuple[Any, dict[str, Any]]:
    """Ana's page at the table whose game is over: the page, and the table's info."""
    page = _page(browser, PHONE, "es-CL")
    page.goto(base_url + "/")
    page.evaluate(f"() => localStorage.setItem('carioca.token.{code}', '{token}')")
    page.goto(f"{base_url}/t/{code}")
    page.wait_for_selector("#over-box:not([hidden]) #match-tally")
    page.wait_for_selector("#rematch")
    page.click("#reveal-ok")  # how the last round ended, first
    return page, _state(page)["table"]


def test_a_best_of_3_shows_its_tally_its_game_and_its_winner(base_url: str,
                                                              browser: Any) -> None:
    """The host picks "Al mejor de 3" in the lobby; at the table, after each game, the header
    says which game of the three it is, the end-of-game panel the games each seat has won,
    and the button goes on to the next game until the match is decided: then it says who won
    it, and the button is a Revancha again (a new match)."""
    page = _page(browser, DESKTOP, "es-CL")
    page.goto(base_url + "/")
    page.wait_for_selector("#preset option", state="attached")
    assert page.inner_text("#match-row > span") == "Partidas"
    assert [o.inner_text() for o in page.query_selector_all("#match option")] == [
        "Una", "Al mejor de 3", "Al mejor de 5"]
    assert page.input_value("#match") == "1"
    page.fill("#name", "Ana")
    page.select_option("#match", "3")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#created:not([hidden])")
    made = page.inner_text("#share-code").strip()
    assert _call(base_url, f"/api/tables/{made}", None)["match"]["games"] == 3
    page.context.close()

    # A table of one round, Ana and a bot; bots play every game (one stands in for Ana).
    created = _call(base_url, "/api/tables", {"name": "Ana", "preset": "chile", "seats": 2,
                                              "bots": {"1": "greedy"}, "match": 3,
                                              "options": {"rounds": [1]}})
    code, token = created["code"], created["token"]
    assert [s["name"] for s in created["table"]["seats"]] == ["Ana", "Greedy"]
    names = ["Ana", "Clásico"]  # the greedy bot, as a Spanish page names it

    def tally(wins: list[int]) -> str:
        return "Partidas ganadas: " + " · ".join(f"{n} {w}" for n, w in zip(names, wins,
                                                                           strict=True))

    info = _bots_play_a_game(base_url, code, token, "start")
    for game in (1, 2, 3):
        match = info["match"]
        assert match["played"] == game and match["current"] == game
        page, shown = _end_panel(browser, base_url, code, token)
        assert shown["match"] == match
        assert f"Partida {game} de 3" in page.inner_text("#info")
        assert page.inner_text("#match-tally") == tally(match["wins"])
        game_won = " y ".join(names[i] for i in _state(page)["view"]["sheet"]["winners"])
        assert page.inner_text("#game-winner").endswith(f": {game_won}")  # this game's
        if match["winners"] is None:
            assert game < 3 and not page.query_selector("#match-winner")
            assert page.inner_text("#rematch") == "Siguiente partida"
            page.context.close()
            info = _bots_play_a_game(base_url, code, token, "rematch")
            continue
        winners = ", ".join(names[i] for i in match["winners"])
        assert page.inner_text("#match-winner") == f"Gana la serie: {winners}"
        assert page.inner_text("#rematch") == "Revancha"
        assert game >= 2  # one game never decides a best of 3
        # The Revancha starts a new match: the tally back to 0, the first of three games.
        page.click("#rematch")
        page.wait_for_function("() => window.carioca.state.table.status === 'playing'")
        page.wait_for_function("() => document.querySelector('#info').textContent"
                               ".includes('Partida 1 de 3')")
        assert _state(page)["table"]["match"]["wins"] == [0, 0]
        assert not page.js_errors, page.js_errors
        page.context.close()
        break
    else:
        raise AssertionError("three games did not decide the match")


def _game_over(tie: bool) -> dict[str, Any]:
    """The last state of a one-round game of Ana and Random (seat 1), as the page gets it
    (the engine's own view of seat 0). Played by two greedy planners; or, for a ``tie``, both
    only draw from the mazo and throw the card drawn for ten turns, holding hands of the same
    points: nobody goes out, and the rules' tie_break (share) gives the game to both."""
    from carioca.actions import Action
    from carioca.bots.levels import make_bot
    from carioca.bots.search import play_until_round_end
    from carioca.cards import deck, parse_cards
    from carioca.engine import Deal, Game
    from carioca.rules import RuleSet

    names = ["Ana", "Random"]
    if not tie:
        rules = RuleSet.preset("chile", rounds=[1])
        game = Game.new(rules, names, seed=11)
        play_until_round_end(game, [make_bot("greedy", seat, rules) for seat in (0, 1)])
    else:
        rules = RuleSet.preset("chile", rounds=[1], max_turns_per_round=10, buying="off")
        ana = parse_cards("2S 3H 4D 5C 6S 7H 8D 9C 10S JH QD KC")
        random = parse_cards("2H 3D 4C 5S 6H 7D 8C 9S 10H JD QC KS")
        rest = Counter(deck(2, 2))
        rest.subtract(ana + random + parse_cards("AS"))
        game = Game(rules, names)
        game.start_round(Deal((tuple(ana), tuple(random)), tuple(parse_cards("AS")),
                              tuple(sorted(rest.elements()))))
        while not game.is_over:
            seat = game.seat_to_act
            assert seat is not None
            before = Counter(game.view(seat).hand)
            game.apply(Action.parse("draw mazo", seat))
            drawn = Counter(game.view(seat).hand) - before
            game.apply(Action.parse(f"discard {next(iter(drawn))}", seat))
    assert game.is_over
    return {"type": "state", "version": 2000, "view": game.view(0).to_json(), "legal": [],
            "deadlines": {"turn": None, "buy": None}, "fair": None, "can_undo": False,
            "round_end": None}


def test_the_end_of_a_game_says_who_won_it(base_url: str, browser: Any) -> None:
    """The end-of-game panel names the winner of the game that just ended, as the score
    sheet below it does; on a shared win both, in each language of the page. The random
    bot is named in the page's language there too ("Al azar")."""
    created = _new_table(base_url)  # Ana and the random bot, whose seat is "Random"
    won, shared = _game_over(tie=False), _game_over(tie=True)
    assert shared["view"]["sheet"]["winners"] == [0, 1]
    (winner,) = won["view"]["sheet"]["winners"]
    expected = {
        "es-CL": "Empate: ganan Ana y Al azar", "en-US": "A shared win: Ana and Random",
        "de-DE": "Geteilter Sieg: Ana und Zufall", "sv-SE": "Delad seger: Ana och Slumpen"}
    for locale, words in expected.items():
        page = _page(browser, PHONE, locale)
        page.goto(f"{base_url}/t/{created['code']}?token={created['token']}")
        _fed_by_hand(page)
        page.wait_for_function("() => (window.carioca.state.bots || []).length > 0")
        if locale == "es-CL":
            _inject(page, won)
            name = ["Ana", "Al azar"][winner]
            page.wait_for_selector("#over-box:not([hidden]) #game-winner")
            assert page.inner_text("#game-winner") == f"Gana la partida: {name}"
            assert page.inner_text("#sheet .winner") == f"Gana {name}"  # the sheet agrees
            assert page.text_content("#announce") == f"Gana la partida: {name}"
            assert page.is_visible("#rematch") and page.is_visible("#download")
        _inject(page, {**shared, "version": 2001})
        page.wait_for_selector("#over-box:not([hidden]) #game-winner")
        assert page.inner_text("#game-winner") == words
        if locale == "es-CL":  # the sheet says it too, with a plural verb
            assert page.inner_text("#sheet .winner") == "Ganan Ana y Al azar"
        assert page.query_selector("#match-winner") is None  # one game: no match to win
        assert not page.js_errors, page.js_errors
        page.context.close()


def test_the_generic_bots_are_named_in_the_pages_language(base_url: str,
                                                          browser: Any) -> None:
    """The lobby offers "Al azar" in Spanish and "Zufall" in German for the random bot (its
    id stays "random"), a personality by its name; at the table the seat of the random bot
    reads "Al azar" in Spanish, though the server names the seat "Random"."""
    for locale, random, greedy, level in (("es-CL", "Al azar", "Clásico", "nivel"),
                                          ("de-DE", "Zufall", "Klassiker", "Stufe")):
        page = _page(browser, PHONE, locale)
        page.goto(base_url + "/")
        page.wait_for_selector('select[name="bot-1"] option[value="random"]', state="attached")
        options = {o.get_attribute("value"): o.inner_text()
                   for o in page.query_selector_all('select[name="bot-1"] option')}
        assert options["random"] == f"Bot: {random} · {level} 0"
        assert options["greedy"] == f"Bot: {greedy} · {level} 1"
        assert options["chela"] == f"Bot: Tía Chela · {level} 1"
        title = page.get_attribute('select[name="bot-1"] option[value="random"]', "title")
        assert title.startswith(f"{random}: ")
        page.context.close()

    created = _call(base_url, "/api/tables", {"name": "Ana", "preset": "chile", "seats": 3,
                                              "bots": {"1": "random", "2": "random"}})
    assert [s["name"] for s in created["table"]["seats"]] == ["Ana", "Random", "Random 2"]
    page = _page(browser, PHONE, "es-CL")
    page.goto(f"{base_url}/t/{created['code']}?token={created['token']}")
    page.wait_for_function("() => (window.carioca.state.bots || []).length > 0")
    page.wait_for_function("() => document.querySelector('.seat[data-seat=\"2\"] .name')"
                           "?.textContent.includes('Al azar 2')")
    assert page.inner_text('.seat[data-seat="1"] .name') == "Al azar"
    chosen = page.locator('.seat[data-seat="1"] select')
    assert chosen.input_value() == "random"
    assert chosen.locator("option:checked").inner_text() == "Bot: Al azar"
    assert not page.js_errors, page.js_errors
    page.context.close()


# --------------------------------------------------------------------------- the rules page

def _rules_text(page: Any) -> str:
    page.wait_for_selector("#rules h1")
    return str(page.inner_text("#rules"))


def test_the_rules_page_reads_a_preset_in_the_pages_language(base_url: str, browser: Any) -> None:
    page = _page(browser)
    page.goto(base_url + "/rules?preset=familia")
    text = _rules_text(page)
    assert "Carioca: familia" in text and "Jugadores y naipes" in text
    rows = page.locator("#rules table.rules-table tbody tr")
    assert rows.count() == 4  # familia's four rounds, one row each
    assert "tríos" in rows.nth(0).inner_text()
    page.select_option("c-settings select.lang", "de")
    page.wait_for_function("() => document.querySelector('#rules').innerText.includes('Spieler')")
    assert "Jugadores" not in page.inner_text("#rules")
    page.select_option("#preset", "chile")  # another preset, picked on the page
    page.wait_for_function("() => document.querySelector('#rules h1').innerText.endsWith('chile')")
    assert page.locator("#rules table.rules-table tbody tr").count() == 8
    # On a phone a wide table scrolls in its own box, never the page sideways.
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate("() => getComputedStyle(document.querySelector('#rules table'))"
                         ".display") == "table"
    assert not page.js_errors
    page.context.close()


def test_the_lobby_links_the_rules_it_is_making(base_url: str, browser: Any) -> None:
    page = _page(browser)
    page.goto(base_url + "/")
    page.wait_for_function("() => document.querySelectorAll('#preset option').length > 0")
    page.select_option("#preset", "chico")
    assert page.get_attribute("#rules-link", "href") == "/rules?preset=chico"
    page.click('details[data-group="stealing"] summary')
    page.select_option('select[name="buying"]', "penalty_card")  # a change, in the link too
    href = page.get_attribute("#rules-link", "href") or ""
    assert "preset=chico" in href and "penalty_card" in href
    page.goto(base_url + href)
    assert "Carioca: chico" in _rules_text(page) and "Se puede comprar" in _rules_text(page)
    assert not page.js_errors
    page.context.close()


def test_a_tables_rules_page_shows_the_hosts_changes(base_url: str, browser: Any) -> None:
    import urllib.request

    req = urllib.request.Request(
        base_url + "/api/tables", method="POST", headers={"Content-Type": "application/json"},
        data=json.dumps({"name": "Ana", "preset": "chile", "seats": 3,
                         "options": {"buying": "penalty_card", "rounds": [1, 2]},
                         "bots": {"1": "random", "2": "random"}}).encode())
    made = json.load(urllib.request.urlopen(req))
    page = _page(browser)
    page.goto(base_url + f"/t/{made['code']}?token={made['token']}")
    href = page.get_attribute("#rules-link", "href") or ""
    assert href == f"/rules?table={made['code']}"
    page.goto(base_url + href)
    text = _rules_text(page)
    assert f"Reglas de la mesa {made['code']}" in page.inner_text("#which")
    assert "Se puede comprar" in text and "Se juegan 2 rondas" in text
    assert page.locator("#rules table.rules-table tbody tr").count() == 2
    assert not page.js_errors
    page.context.close()


def test_the_rules_page_says_what_is_wrong_with_rules_it_cannot_read(
        base_url: str, browser: Any) -> None:
    page = _page(browser)
    page.goto(base_url + "/rules?table=NOSUCH")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error").strip() and not page.inner_text("#rules").strip()
    page.goto(base_url + '/rules?preset=chile&options={"max_wilds_per_meld":-4}')
    page.wait_for_selector("#error:not([hidden])")
    assert "Traceback" not in page.inner_text("body")
    assert not page.js_errors
    page.context.close()


def test_a_refusal_after_the_move_went_through_does_not_send_it_again(
        base_url: str, browser: Any) -> None:
    """A stale refusal is sent again only for the move it refused: once a move is acknowledged,
    a later message's refusal (a pass, an undo) must not play that move a second time."""
    created = _new_table(base_url)
    _, (before, _later) = _scripted_game()
    page = _page(browser, DESKTOP, "es-CL")
    page.goto(f"{base_url}/t/{created['code']}?token={created['token']}")
    _fed_by_hand(page)

    def sent() -> list[dict[str, Any]]:
        return page.evaluate("() => window.sent")

    def stale() -> None:
        page.evaluate("() => window.carioca.receive({type: 'error', code: 'stale_version',"
                      " message: 'the table changed'})")

    _inject(page, before, forget_sent=True)
    _card_in_hand(page, "2S").click()
    page.click("#discard")
    assert [m["action"] for m in sent()] == [{"p": 0, "discard": "2S"}]
    page.evaluate("() => window.carioca.receive({type: 'ack', version: 1001})")
    stale()  # another message's refusal: the discard went through already
    page.wait_for_timeout(100)
    assert len(sent()) == 1, sent()

    # An undo sent after a move: its refusal does not send that move again either.
    _inject(page, {**before, "version": 1002, "can_undo": True}, forget_sent=True)
    if page.is_disabled("#discard"):  # the 2S may still be picked from before
        _card_in_hand(page, "2S").click()
    page.click("#discard")
    page.click("#undo")
    assert [m["type"] for m in sent()] == ["action", "undo"]
    stale()
    page.wait_for_timeout(100)
    assert [m["type"] for m in sent()] == ["action", "undo"], sent()
    assert not page.js_errors
    page.context.close()


def _fed_scripted_page(base_url: str, browser: Any) -> tuple[Any, dict[str, Any],
                                                               dict[str, Any]]:
    """Ana's page at a new table, fed by hand (:func:`_fed_by_hand`), and the two moments of
    :func:`_scripted_game` to give it."""
    created = _new_table(base_url)
    _, (before, later) = _scripted_game()
    page = _page(browser, DESKTOP, "es-CL")
    page.goto(f"{base_url}/t/{created['code']}?token={created['token']}")
    _fed_by_hand(page)
    return page, before, later


def test_a_refused_move_is_not_sent_again_nor_is_it_the_coachs_refusal(
        base_url: str, browser: Any) -> None:
    """A move the server refused stays refused: a later "stale_version", the coach's ("the
    table moved on: ask again", said about the hint) or another's, does not send it again
    on the next state."""
    page, before, _later = _fed_scripted_page(base_url, browser)
    _inject(page, before, forget_sent=True)
    _card_in_hand(page, "2S").click()
    page.click("#discard")
    page.evaluate("""() => {
        window.carioca.receive({type: 'error', code: 'card_not_in_hand', message: 'no'});
        window.carioca.receive({type: 'error', code: 'stale_version', about: 'hint',
                                message: 'the table moved on: ask again'});
        window.carioca.receive({type: 'error', code: 'stale_version', message: 'moved'});
    }""")
    page.wait_for_function("() => document.body.innerText.includes('pide la pista de nuevo')")
    _inject(page, {**before, "version": 1001})
    page.wait_for_timeout(150)
    assert [m["action"] for m in page.evaluate("() => window.sent")] == [
        {"p": 0, "discard": "2S"}]
    assert not page.js_errors
    page.context.close()


def test_the_coachs_advice_stays_until_this_seat_may_do_something_else(
        base_url: str, browser: Any) -> None:
    """A state that changes nothing this seat may do (another's claim, a connection, the
    steal timer's end) keeps the hint on the screen; the next move takes it away."""
    page, before, later = _fed_scripted_page(base_url, browser)
    _inject(page, before, forget_sent=True)
    page.evaluate("""() => window.carioca.receive({type: 'hint', code: 'discard',
        action: {p: 0, discard: '2S'}, reason: 'bota el 2S: no te sirve'})""")
    page.wait_for_selector("#hintbox:not([hidden])")
    _inject(page, {**before, "version": 1001, "presence": 7})
    page.wait_for_timeout(100)
    assert page.is_visible("#hintbox") and "2♠" in page.inner_text("#hintbox")
    _inject(page, later)
    page.wait_for_selector("#hintbox", state="hidden")
    assert not page.js_errors
    page.context.close()


def test_countdowns_count_by_the_servers_clock(base_url: str, browser: Any) -> None:
    """A device whose clock is 45 s slow still shows the turn's 30 s, not 75: the countdown
    counts by the server's time, which each state brings."""
    page, before, _later = _fed_scripted_page(base_url, browser)
    server_now = page.evaluate("() => Date.now() / 1000") + 45
    _inject(page, {**before, "version": 1001, "now": server_now,
                   "deadlines": {"turn": server_now + 30, "buy": None}})
    page.wait_for_selector("#timer c-countdown")
    left = int(page.inner_text("#timer c-countdown").split()[0])
    assert 27 <= left <= 30, left
    # A state that waited 8 s on a slow connection brings an older time: not 8 s more.
    _inject(page, {**before, "version": 1002, "now": server_now - 8,
                   "deadlines": {"turn": server_now + 30, "buy": None}})
    page.wait_for_timeout(400)
    left = int(page.inner_text("#timer c-countdown").split()[0])
    assert 26 <= left <= 30, left
    assert not page.js_errors
    page.context.close()


def test_an_offer_to_buy_closes_the_last_rounds_scores(base_url: str, browser: Any) -> None:
    """The round-end box is read at leisure, but a card to buy has a steal timer: the offer
    closes the box (its scores stay in the score sheet) so that Buy and Pass can be pressed."""
    page, before, _later = _fed_scripted_page(base_url, browser)
    ended = {"round": 1, "went_out": 1, "scores": [35, 0], "hands": [["QS", "2S"], []],
             "seed": 7}
    waiting = {**before, "view": {**before["view"], "to_act": 1}, "legal": [],
               "round_end": ended}
    _inject(page, waiting)
    page.wait_for_selector("#reveal[open]")
    _inject(page, {**waiting, "version": 1001, "legal": [{"p": 0, "buy": True}],
                   "deadlines": {"turn": None, "buy": time.time() + 10}})
    page.wait_for_selector("#buy-btn")
    assert not page.evaluate("() => document.getElementById('reveal').open")
    page.click("#pass-btn")
    assert [m["type"] for m in page.evaluate("() => window.sent")][-1:] == ["pass"]
    # One state with both (a page opened during round 2's first window): the offer first,
    # the scores once it is answered.
    ended2 = {**ended, "round": 2}
    _inject(page, {**waiting, "version": 1002, "round_end": ended2,
                   "view": {**waiting["view"], "turn": 9}, "legal": [{"p": 0, "buy": True}],
                   "deadlines": {"turn": None, "buy": time.time() + 10}})
    page.wait_for_selector("#buy-btn")
    page.wait_for_timeout(100)
    assert not page.evaluate("() => document.getElementById('reveal').open")
    _inject(page, {**waiting, "version": 1003, "round_end": ended2,
                   "view": {**waiting["view"], "turn": 10}})
    page.wait_for_selector("#reveal[open]")
    assert not page.js_errors
    page.context.close()


def test_a_table_that_could_not_be_restored_says_so_and_starts_again(
        tmp_path: Path, browser: Any) -> None:
    """A table whose stored game no longer replays ("broken") tells its players so, and its
    host can start a new game from the page: the table is not stuck waiting."""
    import sqlite3

    from carioca.server import tables
    from carioca.server.app import create_app
    from carioca.store import SQLiteStore

    db = tmp_path / "tables.sqlite"
    manager = tables.TableManager(SQLiteStore(db), bot_delay=0)
    table, token = manager.create(name="Ana", preset="chile", options={}, seats=2,
                                  bots={1: "random"}, turn_timer=0, steal_timer=10,
                                  hints=False)
    table.start()
    code = table.code
    game = table.game
    while len(game.log[-1]) < 2:
        seat = game.seat_to_act
        move = next(a for a in game.legal_actions(seat) if a.kind in ("draw", "discard"))
        table.apply(seat, move.to_json(), None)
    manager.store.close()
    with contextlib.closing(sqlite3.connect(db)) as raw:  # a stored move gone bad
        raw.execute("UPDATE actions SET action = ? WHERE code = ? AND seq = 1",
                    (json.dumps({"p": 0, "discard": "JK"}), code))
        raw.commit()
    app = create_app(db, bot_delay=0.02)
    assert app.state.manager.tables[code].status == "broken"
    with _serving(app) as url:
        page = _page(browser, DESKTOP, "en-GB")
        page.goto(f"{url}/t/{code}?token={token}")
        page.wait_for_selector("#start-again")
        assert "could not be restored" in page.inner_text("#status")
        page.click("#start-again")
        page.wait_for_function("() => window.carioca.state.table.status === 'playing'")
        assert page.is_hidden("#start-again")
        assert not page.js_errors
        page.context.close()


def test_the_rules_text_renderer_takes_every_line(base_url: str, browser: Any) -> None:
    """Lines no block takes ("#x", "####") are paragraphs, not a loop that never ends; text
    goes in as text, never as markup."""
    page = _page(browser)
    page.goto(base_url + "/rules?preset=chico")
    blocks = page.evaluate("""async () => {
        const { renderMarkdown } = await import('/static/js/markdown.js');
        return renderMarkdown('#x\\n####\\n# T\\n<b>bold</b>\\n- a\\n| h |\\n|---|\\n| c |')
            .map((el) => [el.tagName, el.textContent]);
    }""")
    assert blocks == [["P", "#x"], ["P", "####"], ["H1", "T"], ["P", "<b>bold</b>"], ["UL", "a"],
                      ["DIV", "hc"]]  # a table, in its scrolling box
    page.context.close()


def test_an_empty_mazo_says_the_pozo_rebuilds_it(base_url: str, browser: Any) -> None:
    """Ruling 21: the mazo is rebuilt from the pozo when a card must come from it, so in play an
    empty mazo can still be drawn from, and says so, unless the table's cap allows no more."""
    page = _page(browser)
    page.goto(base_url + "/rules?preset=chico")
    labels = page.evaluate("""async () => {
        const { pilesEl } = await import('/static/js/board.js');
        const { setLang } = await import('/static/js/i18n.js');
        const say = (view) => pilesEl(view).querySelector('.mazo').getAttribute('aria-label');
        const out = [];
        for (const lang of ['es', 'en']) {
            setLang(lang);
            out.push(say({ mazo_count: 0, pozo: ['5H', 'KC'], phase: 'draw',
                           reshuffles_left: null }));
        }
        out.push(say({ mazo_count: 0, pozo: ['KC'], phase: 'play', reshuffles_left: 1 }));
        out.push(say({ mazo_count: 0, pozo: ['5H', 'KC'], phase: 'play', reshuffles_left: 0 }));
        out.push(say({ mazo_count: 0, pozo: ['5H', 'KC'], phase: 'between',
                       reshuffles_left: null }));
        out.push(say({ mazo_count: 3, pozo: ['5H', 'KC'], phase: 'play', reshuffles_left: null }));
        return out;
    }""")
    assert labels == ["Mazo: 0 cartas · al sacar, se baraja el pozo",
                      "Mazo: 0 cards · drawing reshuffles the pozo",
                      "Mazo: 0 cards · drawing reshuffles the pozo", "Mazo: 0 cards",
                      "Mazo: 0 cards", "Mazo: 3 cards"]
    page.context.close()
