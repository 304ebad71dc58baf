"""Several server processes on one PostgreSQL database and one Redis: each table is served
by one process, the others send its players there, and when a process dies another takes
its games over with nothing acknowledged lost.

These need the PostgreSQL and Redis of the machine (CARIOCA_TEST_POSTGRES, default
``postgresql:///test``; CARIOCA_TEST_REDIS, default ``redis://127.0.0.1:6379/15``)."""

from __future__ import annotations

import json
import os
import random
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_server import _free_port, _play_acked, _serve

from carioca.server import create_app, tables
from carioca.store import SQLiteStore

PG = os.environ.get("CARIOCA_TEST_POSTGRES", "postgresql:///test")
REDIS = os.environ.get("CARIOCA_TEST_REDIS", "redis://127.0.0.1:6379/15")


def _reachable() -> str | None:
    try:
        import psycopg
        import redis

        psycopg.connect(PG, connect_timeout=3).close()
        redis.Redis.from_url(REDIS, socket_timeout=3).ping()
    except Exception as exc:  # noqa: BLE001 - any failure: say which, and skip
        return f"PostgreSQL ({PG}) or Redis ({REDIS}) is not reachable: {exc}"
    return None


pytestmark = pytest.mark.skipif(_reachable() is not None, reason=str(_reachable()))


@pytest.fixture
def schema() -> Iterator[str]:
    """A schema of its own for one test, dropped after it."""
    import psycopg

    name = f"carioca_test_{secrets.token_hex(4)}"
    with psycopg.connect(PG, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {name}")
    try:
        yield name
    finally:
        with psycopg.connect(PG, autocommit=True) as db:
            db.execute(f"DROP SCHEMA {name} CASCADE")


@pytest.fixture
def prefix() -> Iterator[str]:
    """Redis keys of their own for one test, deleted after it."""
    import redis

    name = f"carioca-test-{secrets.token_hex(4)}"
    yield name
    client = redis.Redis.from_url(REDIS)
    keys = list(client.scan_iter(f"{name}:*"))
    if keys:
        client.delete(*keys)


def _node(schema: str, prefix: str, name: str, lease: float = 15.0, **app: Any) -> Any:
    """One server process's app: its own connection to the store, its own lease holder."""
    from carioca.server.cluster import Cluster
    from carioca.store.postgres import PostgresStore

    cluster = Cluster(REDIS, f"http://{name}.test", node=name, lease=lease, prefix=prefix)
    return create_app(PostgresStore(PG, schema=schema), bot_delay=0, cluster=cluster, **app)


def _new(client: TestClient, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"name": "Ana", **body})
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def _views(game: Any) -> list[Any]:
    return [game.view(s).to_json() for s in range(game.n)]


def test_the_postgres_store_keeps_what_the_sqlite_store_keeps(schema: str) -> None:
    from carioca.store.postgres import PostgresStore

    big = 2**40 + 5  # wider than a 32-bit number
    stores = [SQLiteStore(":memory:"), PostgresStore(PG, schema=schema)]
    for store in stores:
        store.save_table("AAAAAA", {"preset": "chile", "game": 0, "status": "lobby"})
        store.save_table("BBBBBB", {"preset": "chile", "game": 1, "status": "playing"})
        store.save_round("BBBBBB", 0, 1, 7, {"old": True})  # an earlier game: not loaded
        store.save_round("BBBBBB", 1, 1, 9, {"hands": [["AH"]]})
        store.save_round("BBBBBB", 1, 2, None, {"hands": [["2C"]]})
        for seq in range(3):
            store.append_action("BBBBBB", 1, 1, seq, {"p": 0, "seq": seq})
        store.delete_action("BBBBBB", 1, 1, 2)  # an undo
        store.append_action("BBBBBB", 1, 1, 1, {"p": 1, "again": True})  # written over
        store.save_round("BBBBBB", 1, 3, big, {"hands": []})
        store.save_table("AAAAAA", {"preset": "chile", "game": 0, "status": "lobby", "x": 1})
    sqlite, postgres = (sorted(s.load_tables(), key=lambda t: t.code) for s in stores)
    assert sqlite == postgres
    assert postgres[1].rounds[0]["actions"] == [{"p": 0, "seq": 0}, {"p": 1, "again": True}]
    assert postgres[1].rounds[2]["seed"] == big
    assert postgres[0].meta["x"] == 1
    assert stores[1].playing() == ["BBBBBB"]  # type: ignore[attr-defined]
    for loaded in (sqlite, postgres):  # when each table last changed, by either clock
        assert all(abs(t.updated - time.time()) < 60 for t in loaded), loaded
    for store in stores:  # a table deleted whole: settings, deals and actions
        store.delete_table("BBBBBB")
        assert [t.code for t in store.load_tables()] == ["AAAAAA"]
        store.save_table("BBBBBB", {"preset": "chile", "game": 1, "status": "lobby"})
        assert next(t for t in store.load_tables() if t.code == "BBBBBB").rounds == []


def test_a_table_is_served_by_one_process_and_the_others_send_its_players_there(
        schema: str, prefix: str) -> None:
    a, b = _node(schema, prefix, "a"), _node(schema, prefix, "b")
    with TestClient(a) as at_a, TestClient(b) as at_b:
        made = _new(at_a, preset="chile", seats=2)
        code = made["code"]
        assert code in a.state.manager.tables and code not in b.state.manager.tables
        info = at_b.get(f"/api/tables/{code}")
        assert info.status_code == 421
        assert info.json()["error"] == {"code": "elsewhere", "url": "http://a.test",
                                        "message": f"table {code} is served at http://a.test"}
        joined = at_b.post(f"/api/tables/{code}/join", json={"name": "Beto"})
        assert joined.status_code == 421  # nothing changed at b's end
        page = at_b.get(f"/t/{code}?token=abc", follow_redirects=False)
        assert page.status_code == 307
        assert page.headers["location"] == f"http://a.test/t/{code}?token=abc"
        with at_b.websocket_connect(f"/ws/{code}") as ws:
            refusal = ws.receive_json()
        assert refusal["code"] == "elsewhere" and refusal["url"] == "http://a.test"
        assert at_b.get("/api/tables/NOSUCH").status_code == 404
        assert at_b.get(f"/api/tables/{'Z' * 400}").status_code == 404
        # A new table at b is b's; codes never collide across processes (same store).
        other = _new(at_b, preset="chile", seats=2)["code"]
        assert other != code and at_a.get(f"/api/tables/{other}").status_code == 421
        assert at_a.get(f"/api/tables/{code}").json()["seats"][0]["name"] == "Ana"


def _play(ws: Any, moves: int, rng: random.Random) -> dict[str, Any]:
    """Play random legal moves for the seat of ``ws`` until ``moves`` are acknowledged; the
    last state seen."""
    acks, last = 0, {}
    while acks < moves:
        msg = ws.receive_json()
        if msg["type"] == "state" and "view" in msg:
            last = msg
            if msg["legal"]:
                ws.send_json({"type": "action", "version": msg["version"],
                              "action": rng.choice(msg["legal"])})
        elif msg["type"] == "ack":
            acks += 1
    return last


def test_a_process_that_dies_has_its_games_taken_over_with_nothing_lost(
        schema: str, prefix: str) -> None:
    a = _node(schema, prefix, "a", lease=1.0)
    b = _node(schema, prefix, "b", lease=1.0)
    with TestClient(b) as at_b:
        with TestClient(a) as at_a:
            made = _new(at_a, preset="chile", seats=2, bots={"1": "random"})
            code, token = made["code"], made["token"]
            at_a.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": token})
            with at_a.websocket_connect(f"/ws/{code}") as ws:
                ws.send_json({"type": "hello", "token": token})
                _play(ws, 12, random.Random(3))
            table = a.state.manager.tables[code]
            while table.game.seat_to_act != 0:  # the bot's move lands before a dies
                time.sleep(0.05)
            views, record = _views(table.game), table.game.to_record()
            # a dies: its leases are not given up, they lapse.
            a.state.manager.cluster.release = lambda code: None
        # Nobody asks for the table: b's sweep finds the game unserved and takes it over.
        deadline = time.time() + 10
        while code not in b.state.manager.tables and time.time() < deadline:
            time.sleep(0.1)
        moved = b.state.manager.tables[code]
        assert _views(moved.game) == views and moved.game.to_record() == record
        assert moved.seat_of(token) == 0
        with at_b.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": token})
            assert ws.receive_json()["seat"] == 0
            _play(ws, 6, random.Random(4))  # the game goes on, the bot too
        assert len(moved.game.to_record()["rounds"][0]["actions"]) > \
            len(record["rounds"][0]["actions"])


def test_a_process_that_lost_its_table_cannot_write_over_the_new_owner(
        schema: str, prefix: str) -> None:
    a, b = _node(schema, prefix, "a"), _node(schema, prefix, "b")
    with TestClient(a) as at_a, TestClient(b) as at_b:
        made = _new(at_a, preset="chile", seats=2)
        code, ana = made["code"], made["token"]
        beto = at_a.post(f"/api/tables/{code}/join", json={"name": "Beto"}).json()["token"]
        at_a.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": ana})
        with at_a.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": beto})
            ws.receive_json()
            state = ws.receive_json()
            # a stalls past its lease, which b takes; b is asked for the table.
            _lapse_to(b, code)
            assert at_b.get(f"/api/tables/{code}").status_code == 200
            before = b.state.manager.tables[code].game.to_record()
            ws.send_json({"type": "action", "version": state["version"],
                          "action": state["legal"][0]})
            answer = ws.receive_json()
            while answer["type"] != "error":
                answer = ws.receive_json()
            assert answer["code"] == "moved"
        assert code not in a.state.manager.tables
        assert at_a.get(f"/api/tables/{code}").json()["error"]["url"] == "http://b.test"
        # The store holds b's game, untouched by a's late move.
        b.state.manager.let_go(code)
        assert at_a.get(f"/api/tables/{code}").status_code == 200
        assert a.state.manager.tables[code].game.to_record() == before


def test_idle_tables_are_deleted_by_whoever_serves_them(schema: str, prefix: str) -> None:
    """Only the process that serves a table deletes it (another's delete is refused as moved,
    and deletes nothing). A lobby idle past its keep that no process serves is taken by the
    next look for unserved tables, and deleted: settings, deals and actions."""
    import psycopg

    from carioca.store.postgres import TableMoved

    # long leases: the servers' own chores do not run in the middle of the test
    a, b = _node(schema, prefix, "a", lease=600), _node(schema, prefix, "b", lease=600)
    with TestClient(a) as at_a, TestClient(b) as at_b:
        lobby = _new(at_a, preset="chile", seats=2)["code"]
        played = _new(at_a, preset="chile", seats=2, bots={"1": "random"})
        at_a.post(f"/api/tables/{played['code']}/start",
                  headers={"X-Carioca-Token": played["token"]})
        shared_b = b.state.manager.store
        with pytest.raises(TableMoved):
            shared_b.delete_table(played["code"])
        assert shared_b.load_table(played["code"]).rounds
        manager = a.state.manager
        # on the server's own loop, as its looks run (not beside them)
        assert at_a.portal.call(manager.expire, time.time() + 31 * tables.DAY) == [
            lobby, played["code"]]
        assert shared_b.load_table(played["code"]) is None
        with psycopg.connect(PG) as db:
            for name in ("carioca_rounds", "carioca_actions"):
                count = db.execute(f"SELECT count(*) FROM {schema}.{name} WHERE code = %s",
                                   (played["code"],)).fetchone()
                assert count == (0,), name

        # Lobbies a left behind, idle for two days: b's look deletes them under their lease,
        # one that cannot be read any more too, and leaves a fresh one.
        idle = _new(at_a, preset="chile", seats=2)["code"]
        unreadable = _new(at_a, preset="chile", seats=2)["code"]
        fresh = _new(at_a, preset="chile", seats=2)["code"]
        watched = _new(at_a, preset="chile", seats=2)["code"]  # a page open for days
        with psycopg.connect(PG) as db:
            db.execute(f"UPDATE {schema}.carioca_tables SET updated = now() - interval "
                       "'2 days' WHERE code = ANY(%s)", ([idle, unreadable, watched],))
            db.execute(f"UPDATE {schema}.carioca_tables SET meta = %s WHERE code = %s",
                       (json.dumps({"preset": "gone", "seats": []}), unreadable))
        def look_while_watched() -> None:  # on a's loop, in one go: no state is sent
            table = a.state.manager.tables[watched]
            page = object()
            table.conns.add(page)
            try:
                a.state.manager.expire(time.time() + tables.TOUCH_EVERY + 1)
            finally:
                table.conns.discard(page)

        at_a.portal.call(look_while_watched)
        for code in (idle, unreadable, fresh, watched):  # a stops serving them
            at_a.portal.call(a.state.manager.let_go, code)
        assert sorted(shared_b.idle({"lobby": tables.DAY}, 50)) == sorted([idle, unreadable])
        at_b.portal.call(b.state.manager._chores)
        assert not {idle, unreadable, fresh, watched} & set(b.state.manager.tables)
        assert shared_b.load_table(idle) is None and shared_b.load_table(unreadable) is None
        assert shared_b.load_table(fresh) is not None
        assert shared_b.load_table(watched) is not None  # in use: the store was told
        assert b.state.manager.cluster.owner(idle) is None  # its lease let go


def _lapse_to(app: Any, code: str) -> None:
    """The lease of ``code`` lapses and ``app``'s process takes it, in one step: the process
    that held it (not really stalled) cannot renew it in between."""
    cluster = app.state.manager.cluster
    cluster.redis.set(cluster._key(code), cluster._value, px=int(cluster.lease * 1000))


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    """Kill the servers, and forget what they left in Redis (killed servers do not say that
    they are gone: the next test's pages would be told of them)."""
    import redis

    for proc in procs:
        proc.kill()
        proc.wait(timeout=10)
    client = redis.Redis.from_url(REDIS)
    keys = list(client.scan_iter("carioca:*"))
    if keys:
        client.delete(*keys)


def test_kill_9_of_one_server_moves_its_tables_to_another(schema: str) -> None:
    import httpx
    from websockets.sync.client import connect

    db = f"{PG}{'&' if '?' in PG else '?'}options=-csearch_path%3D{schema}"
    ports = [_free_port(), _free_port()]
    procs = [_serve(db, p, "--redis", REDIS, "--lease", "1") for p in ports]
    a, b = (f"127.0.0.1:{p}" for p in ports)
    try:
        made = httpx.post(f"http://{a}/api/tables", json={"name": "Ana", "preset": "chile",
                                                           "seats": 2, "bots": {"1": "random"}})
        code, token = made.json()["code"], made.json()["token"]
        httpx.post(f"http://{a}/api/tables/{code}/start", headers={"X-Carioca-Token": token})
        elsewhere = httpx.get(f"http://{b}/api/tables/{code}")
        assert elsewhere.status_code == 421
        assert elsewhere.json()["error"]["url"] == f"http://{a}"
        with connect(f"ws://{a}/ws/{code}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            acked = [s["view"]["log"] for s in _play_acked(ws, random.Random(5), 10)]
        procs[0].send_signal(signal.SIGKILL)
        procs[0].wait(timeout=10)
        deadline = time.time() + 15
        while httpx.get(f"http://{b}/api/tables/{code}").status_code != 200:
            assert time.time() < deadline, "b never took the table over"
            time.sleep(0.2)
        with connect(f"ws://{b}/ws/{code}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            assert json.loads(ws.recv(timeout=10))["seat"] == 0
            state = json.loads(ws.recv(timeout=10))
        log = state["view"]["log"]
        assert state["view"]["round"] == 1 and log[:len(acked[-1])] == acked[-1]
    finally:
        _stop(procs)


def test_serve_without_the_distributed_extra_says_what_to_install() -> None:
    # psycopg and redis-py come with carioca[distributed]: without them, a clear word.
    for blocked, args in (("psycopg", ["--db", PG]),
                          ("redis", ["--db", PG, "--redis", REDIS])):
        code = (f"import sys; sys.modules[{blocked!r}] = None; "
                "from carioca.cli import main; main()")
        failed = subprocess.run([sys.executable, "-c", code, "serve", "--port", "0", *args],
                                capture_output=True, text=True, timeout=60)
        assert failed.returncode == 2, failed.stderr
        assert "pip install 'carioca[distributed]'" in failed.stderr, failed.stderr
        assert "Traceback" not in failed.stderr and "Carioca: http" not in failed.stdout


def test_serve_says_why_it_cannot_share_the_tables(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "from carioca.cli import main; main()", "serve",
               "--port", "0"]
    for args, words in (
            (["--db", str(tmp_path / "a.db"), "--redis", REDIS], "a SQLite file belongs"),
            (["--db", "postgresql://127.0.0.1:1/nowhere"], "cannot reach PostgreSQL"),
            (["--db", PG, "--redis", "redis://127.0.0.1:1/0"], "cannot reach Redis"),
            (["--db", PG, "--redis", "bogus"], "'bogus' is not a Redis address"),
            (["--db", PG, "--redis", "redis://:notaport"], "is not a Redis address"),
            (["--bot-delay", "nan"], "--bot-delay is 0 to 60 seconds, not nan"),
            (["--bot-delay", "inf"], "--bot-delay is 0 to 60 seconds, not inf")):
        failed = subprocess.run([*command, *args], capture_output=True, text=True, timeout=60)
        assert failed.returncode == 2, (args, failed.stderr)
        assert words in failed.stderr and "Traceback" not in failed.stderr, failed.stderr
        assert "Carioca: http" not in failed.stdout


SEAT = "() => window.carioca && window.carioca.state.seat === 0 && location.origin"
"""In the page: its origin once it sits in seat 0 (false before)."""


def _duel_at(base: str) -> tuple[str, str]:
    """A started 2-seat `chile` table made at ``base``: Ana (seat 0) against a random bot.
    Its code and Ana's token."""
    import httpx

    made = httpx.post(f"{base}/api/tables", json={"name": "Ana", "preset": "chile",
                                                   "seats": 2, "bots": {"1": "random"}}).json()
    code, token = made["code"], made["token"]
    httpx.post(f"{base}/api/tables/{code}/start", headers={"X-Carioca-Token": token})
    return code, token


def _browser_page(playwright: Any) -> tuple[Any, Any, list[str]]:
    """Debian's Chromium, a page in it, and the page's script errors as they come."""
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                         args=["--no-sandbox", "--disable-gpu"])
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return browser, page, errors


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="needs Debian's chromium")
def test_the_table_page_follows_its_table_to_the_server_that_serves_it(
        schema: str, prefix: str) -> None:
    import httpx
    from playwright.sync_api import sync_playwright

    from carioca.server.cluster import Cluster
    from carioca.store.postgres import PostgresStore

    ports = [_free_port(), _free_port()]
    apps = [create_app(PostgresStore(PG, schema=schema), bot_delay=0.02,
                       cluster=Cluster(REDIS, f"http://127.0.0.1:{port}", node=f"n{port}",
                                       lease=1.0, prefix=prefix)) for port in ports]
    served = []
    for app, port in zip(apps, ports, strict=True):
        import threading

        import uvicorn

        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                               log_level="warning", ws_ping_interval=None))
        threading.Thread(target=server.run, daemon=True).start()
        served.append(server)
    a, b = (f"http://127.0.0.1:{port}" for port in ports)
    try:
        while not all(s.started for s in served):
            time.sleep(0.05)
        code, token = _duel_at(b)
        with sync_playwright() as p:
            browser, page, errors = _browser_page(p)
            seat = SEAT
            # The link was shared from a, which does not serve the table: b's page opens.
            page.goto(f"{a}/t/{code}?token={token}")
            page.wait_for_function(f"() => ({seat})() === '{b}'", timeout=15000)
            # The table moves to a (b stalled past its lease): the page follows it there,
            # with its seat.
            _lapse_to(apps[0], code)
            assert httpx.get(f"{a}/api/tables/{code}").status_code == 200
            page.wait_for_function(f"() => ({seat})() === '{a}'", timeout=15000)
            page.wait_for_function("() => window.carioca.state.msg && "
                                   "window.carioca.state.msg.view", timeout=15000)
            assert "token" not in page.url
            # a stops: its page cannot reconnect there, and goes to the server that is left,
            # which takes the table over.
            page.wait_for_function(f"() => (window.carioca.state.peers || []).includes('{b}')",
                                   timeout=15000)
            served[0].should_exit = True
            page.wait_for_function(f"() => ({seat})() === '{b}'", timeout=20000)
            assert code in apps[1].state.manager.tables and not errors
            browser.close()
    finally:
        for server in served:
            server.should_exit = True


def test_a_copy_let_go_never_writes_even_when_the_process_takes_the_table_back(
        schema: str, prefix: str) -> None:
    from carioca.actions import Draw
    from carioca.store.postgres import TableMoved

    a = _node(schema, prefix, "a")
    with TestClient(a) as at_a:
        made = _new(at_a, preset="chile", seats=2)
        code, ana = made["code"], made["token"]
        at_a.post(f"/api/tables/{code}/join", json={"name": "Beto"})
        at_a.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": ana})
        manager = a.state.manager
        old = manager.tables[code]
        manager.let_go(code)  # its lease went elsewhere, and came back
        new = manager.get(code)
        assert new is not old and old.gone
        seat = new.game.seat_to_act
        new._commit(Draw(seat, "mazo"))  # acknowledged on the copy served now
        with pytest.raises(TableMoved):
            old._commit(Draw(seat, "pozo"))  # a bot's move still under way on the old copy
        with pytest.raises(TableMoved):
            old._save()
        manager.let_go(code)
        again = manager.get(code)
        assert again.game.to_record() == new.game.to_record()
        assert again.game.log[0][-1] == Draw(seat, "mazo")


def test_a_cut_database_connection_is_opened_again(schema: str) -> None:
    import psycopg

    from carioca.store.postgres import PostgresStore

    store = PostgresStore(PG, schema=schema)
    store.save_table("AAAAAA", {"preset": "chile", "status": "lobby"})
    with psycopg.connect(PG, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (store._db.info.backend_pid,))
    store.save_table("AAAAAA", {"preset": "chile", "status": "playing"})  # no error
    assert store.playing() == ["AAAAAA"]
    store.adopt("AAAAAA")
    with psycopg.connect(PG, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (store._db.info.backend_pid,))
    store.append_action("AAAAAA", 0, 1, 0, {"p": 0})  # fenced, and written
    assert store.load_table("AAAAAA").rounds == []  # no deal saved: no round to show
    assert store.still_mine("AAAAAA")


def test_redis_or_postgres_away_is_a_clear_refusal_not_a_crash(
        schema: str, prefix: str) -> None:
    import redis

    a = _node(schema, prefix, "a")
    with TestClient(a) as at_a:
        code = _new(at_a, preset="chile", seats=2)["code"]
        a.state.manager.let_go(code)  # served by nobody: the next request takes it over
        cluster = a.state.manager.cluster
        cluster.redis = redis.Redis.from_url("redis://127.0.0.1:1/0", socket_timeout=1)
        answer = at_a.get(f"/api/tables/{code}")
        assert answer.status_code == 503 and answer.json()["error"]["code"] == "unavailable"
        made = at_a.post("/api/tables", json={"name": "Ana", "preset": "chile", "seats": 2})
        assert made.status_code == 503 and made.json()["error"]["code"] == "unavailable"
        assert at_a.get(f"/t/{code}").status_code == 200  # the page opens, and retries
        with at_a.websocket_connect(f"/ws/{code}") as ws:
            assert ws.receive_json()["code"] == "unavailable"


def test_a_player_who_comes_back_by_the_old_address_keeps_the_seat(
        schema: str, prefix: str) -> None:
    a, b = _node(schema, prefix, "a"), _node(schema, prefix, "b")
    with TestClient(a) as at_a, TestClient(b, base_url="http://b.test") as at_b:
        made = _new(at_a, preset="chile", seats=2)
        code, token = made["code"], made["token"]
        at_b.cookies.set(f"carioca_{code}", token)  # where Ana sat before the table moved
        page = at_b.get(f"/t/{code}", follow_redirects=False)
        assert page.status_code == 307
        assert page.headers["location"] == f"http://a.test/t/{code}?token={token}"
        # Never sent back to itself (a balancer in front, every server with one address).
        same = TestClient(b, base_url="http://a.test")
        assert same.get(f"/t/{code}", follow_redirects=False).status_code == 200


def test_a_deal_whose_write_failed_is_written_before_the_next_move(
        schema: str, prefix: str) -> None:
    # The move that ends a round is stored, then the next deal: should that write fail, the
    # move still stands, and the deal is stored before any move of the new round, so that a
    # take-over finds every move.
    import psycopg

    a = _node(schema, prefix, "a")
    with TestClient(a) as at_a:
        made = _new(at_a, preset="chile", seats=2, bots={"1": "greedy"},
                    options={"rounds": [1, 2]})
        code, ana = made["code"], made["token"]
        manager = a.state.manager
        store = manager.store
        real, failed = store.save_round, []

        def flaky(*args: Any) -> None:
            if args[2] == 2 and not failed:
                failed.append(args)
                raise psycopg.OperationalError("the database went away")
            real(*args)

        store.save_round = flaky
        at_a.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": ana})
        answer = at_a.post(f"/api/tables/{code}/stand-in", json={"seat": 0, "bot": "greedy"},
                           headers={"X-Carioca-Token": ana})
        assert answer.status_code == 200, answer.text
        table = manager.tables[code]
        deadline = time.time() + 30
        while not (len(table.game.deals) == 2 and len(table.game.log[-1]) >= 4):
            assert time.time() < deadline and table.status != "over", "round 2 never came"
            time.sleep(0.05)
        assert failed  # the write of round 2's deal failed once
        manager.let_go(code)
        again = manager.get(code)
        assert again is not table
        assert again.game.to_record() == table.game.to_record()


def test_a_process_that_cannot_renew_its_leases_serves_nothing_stale(
        schema: str, prefix: str) -> None:
    import redis

    a = _node(schema, prefix, "a", lease=1.0)
    with TestClient(a) as at_a:
        code = _new(at_a, preset="chile", seats=2)["code"]
        assert at_a.get(f"/api/tables/{code}").status_code == 200
        cluster = a.state.manager.cluster
        cluster.redis = redis.Redis.from_url("redis://127.0.0.1:1/0", socket_timeout=1)
        time.sleep(1.5)  # a lease's length without a renewal: another may serve it now
        answer = at_a.get(f"/api/tables/{code}")
        assert answer.status_code == 503 and answer.json()["error"]["code"] == "unavailable"
        assert code not in a.state.manager.tables


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="needs Debian's chromium")
def test_a_page_whose_server_is_killed_finds_the_server_that_took_its_table(
        schema: str) -> None:
    # The page at a knows b; a is killed; c, which started after the page (the page does not
    # know it), takes the table over. b sends the page to c, with its seat.
    from playwright.sync_api import sync_playwright

    db = f"{PG}{'&' if '?' in PG else '?'}options=-csearch_path%3D{schema}"
    ports = [_free_port(), _free_port(), _free_port()]
    # b sweeps for unserved games only as it starts (its chores come every 20 minutes).
    procs = [_serve(db, ports[0], "--redis", REDIS, "--lease", "1"),
             _serve(db, ports[1], "--redis", REDIS, "--lease", "3600")]
    a, b, c = (f"http://127.0.0.1:{p}" for p in ports)
    try:
        code, token = _duel_at(a)
        with sync_playwright() as p:
            browser, page, errors = _browser_page(p)
            seat = SEAT
            time.sleep(0.5)  # both servers have said they are alive: the page learns of b
            page.goto(f"{a}/t/{code}?token={token}")
            page.wait_for_function(f"() => ({seat})() === '{a}'", timeout=15000)
            page.wait_for_function(f"() => (window.carioca.state.peers || []).includes('{b}')",
                                   timeout=15000)
            procs.append(_serve(db, ports[2], "--redis", REDIS, "--lease", "1"))
            procs[0].send_signal(signal.SIGKILL)  # a dies holding its lease for a second
            page.wait_for_function(f"() => ({seat})() === '{c}'", timeout=30000)
            page.wait_for_function("() => window.carioca.state.msg && "
                                   "window.carioca.state.msg.view", timeout=15000)
            assert "token" not in page.url and not errors, errors
            browser.close()
    finally:
        _stop(procs)


def test_stuck_connections_do_not_let_the_leases_lapse(schema: str, prefix: str) -> None:
    # Connections that stopped reading at every table (each waits on its own writer now,
    # and the loop on none): the leases are renewed on a timer of their own all the same.
    import asyncio

    from carioca.server.tables import Connection

    async def stuck(msg: dict[str, Any]) -> None:
        await asyncio.sleep(3600)

    a = _node(schema, prefix, "a", lease=1.0)
    with TestClient(a) as at_a:
        manager = a.state.manager
        codes = [_new(at_a, preset="chile", seats=2)["code"] for _ in range(3)]
        for code in codes:
            manager.tables[code].conns.add(Connection(None, stuck))
            manager.poke(manager.tables[code])
        time.sleep(3.5)  # each stuck send lasts 2 s; a lease lasts 1 s
        assert [manager.cluster.owner(code) for code in codes] == [manager.cluster.me] * 3
        assert all(code in manager.tables for code in codes)


def test_a_socket_opened_on_a_copy_let_go_is_sent_on(schema: str, prefix: str) -> None:
    a = _node(schema, prefix, "a")
    with TestClient(a) as at_a:
        made = _new(at_a, preset="chile", seats=2)
        code, token = made["code"], made["token"]
        with at_a.websocket_connect(f"/ws/{code}") as ws:
            a.state.manager.let_go(code)  # between the lookup and the hello
            ws.send_json({"type": "hello", "token": token})
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["code"] == "moved"
        assert at_a.get(f"/api/tables/{code}").status_code == 200  # served again
        assert a.state.manager.tables[code].conns == set()


def test_codes_that_name_no_table_are_counted_across_the_processes(
        schema: str, prefix: str) -> None:
    """Guessing table codes at two processes counts as at one: 30 codes that named no table,
    half at each, and both refuse the address (each alone would have let 60 through). Should
    Redis stop answering, a process still counts the guesses it saw itself."""
    import redis

    from carioca.server.app import GUESSES_PER_MINUTE, SHARED_PAUSE, code_guesses

    a, b = _node(schema, prefix, "a"), _node(schema, prefix, "b")
    with TestClient(a) as at_a, TestClient(b) as at_b:
        code = _new(at_a, preset="chile", seats=2)["code"]
        half = GUESSES_PER_MINUTE // 2
        for i in range(half):
            assert at_a.get(f"/api/tables/NA{i:04d}").status_code == 404
            assert at_a.get(f"/api/tables/NA{i:04d}").status_code == 404  # again: counts once
        for i in range(GUESSES_PER_MINUTE - half - 1):
            assert at_b.get(f"/api/tables/NB{i:04d}").status_code == 404
        assert at_a.get(f"/api/tables/{code}").status_code == 200  # 29 codes: still open
        assert at_b.get("/api/tables/NB9999").status_code == 404  # the 30th, at b
        for client in (at_a, at_b):
            refused = client.get(f"/api/tables/{code}")
            assert refused.status_code == 429, refused.text
            assert refused.json()["error"]["code"] == "too_many_tries"
        other = TestClient(a, client=("10.0.0.9", 5000))  # another address is not held up
        assert other.get(f"/api/tables/{code}").status_code == 200

    # Redis fails: the guesses this process saw still count, and Redis is left alone for a
    # while (a Redis that hangs would hold every table request for its timeout).
    cluster = a.state.manager.cluster
    working = cluster.redis
    cluster.redis = redis.Redis.from_url("redis://127.0.0.1:1/0", socket_timeout=1)
    now = [0.0]
    alone = code_guesses(most=3, shared=cluster, clock=lambda: now[0])
    for i in range(3):
        assert not alone.blocked("10.1.1.1")
        alone.noted("10.1.1.1", f"C{i}")
    assert alone.blocked("10.1.1.1") and not alone.blocked("10.1.1.2")
    asked: list[str] = []
    cluster.count = lambda *args: asked.append("count") or 0  # type: ignore[method-assign]
    assert not alone.blocked("10.1.1.3") and asked == []  # within the pause: not asked
    now[0] += SHARED_PAUSE
    assert not alone.blocked("10.1.1.3") and asked == ["count"]  # asked again after it
    # Redis answers again, knowing nothing of what happened meanwhile: the larger count.
    cluster.redis = working
    del cluster.count
    assert alone.blocked("10.1.1.1")


def test_tables_opened_at_two_processes_count_together(schema: str, prefix: str) -> None:
    """One address opening tables at two processes is held to one limit: two at each of a
    limit of four, and both refuse the fifth. Another address is not held up."""
    a = _node(schema, prefix, "a", tables_per_address=4)
    b = _node(schema, prefix, "b", tables_per_address=4)
    with TestClient(a) as at_a, TestClient(b) as at_b:
        for client in (at_a, at_b, at_a, at_b):
            _new(client, preset="chile", seats=2)
        for client in (at_a, at_b):
            refused = client.post("/api/tables", json={"name": "Ana", "seats": 2})
            assert refused.status_code == 429, refused.text
            assert refused.json()["error"]["code"] == "too_many_tables"
        other = TestClient(b, client=("10.0.0.9", 5000))
        _new(other, preset="chile", seats=2)


def test_the_shared_guess_count_lapses_and_stays_small(prefix: str) -> None:
    """A household's codes in Redis: the newest ``most`` only, gone a window after the last."""
    import redis

    from carioca.server.cluster import Cluster

    cluster = Cluster(REDIS, "http://a.test", node="a", prefix=prefix)
    client = redis.Redis.from_url(REDIS)
    key = f"{prefix}:guesses:10.2.2.2"
    try:
        for i in range(12):
            cluster.note("guesses", "10.2.2.2", f"C{i}", window=0.5, most=5)
        cluster.note("guesses", "10.2.2.2", "C11", window=0.5, most=5)  # again: once
        assert cluster.count("guesses", "10.2.2.2", 0.5) == 5 and client.zcard(key) == 5
        assert sorted(m.decode() for m in client.zrange(key, 0, -1)) == [
            "C10", "C11", "C7", "C8", "C9"]
        assert 0 < client.pttl(key) <= 500
        assert cluster.count("guesses", "10.2.2.3", 0.5) == 0
        time.sleep(0.6)
        assert cluster.count("guesses", "10.2.2.2", 0.5) == 0 and not client.exists(key)
    finally:
        cluster.close()


def test_the_processes_find_each_other_without_walking_the_keys(prefix: str) -> None:
    """Each process names the others that are alive; one that closes, or stops saying so for
    a lease, is no longer named. Other keys (guesses, leases) are never read for it."""
    import redis

    from carioca.server.cluster import Cluster

    a = Cluster(REDIS, "http://a.test", node="a", lease=0.5, prefix=prefix)
    b = Cluster(REDIS, "http://b.test", node="b", lease=0.5, prefix=prefix)
    c = Cluster(REDIS, "http://c.test", node="c", lease=30, prefix=prefix)
    client = redis.Redis.from_url(REDIS)
    try:
        for i in range(50):
            a.note("guesses", f"10.3.3.{i}", "X", window=30, most=30)
        assert a.announce() == []  # alone so far
        assert b.announce() == ["http://a.test"] and c.announce() == ["http://a.test",
                                                                      "http://b.test"]
        assert a.announce() == ["http://b.test", "http://c.test"]
        b.close()
        assert a.announce() == ["http://c.test"]
        time.sleep(0.6)  # a said nothing for a lease: gone for c
        assert c.announce() == []
        assert client.zcard(f"{prefix}:nodes") == 1
    finally:
        a.close()
        c.close()
