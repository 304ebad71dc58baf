"""The provably fair deck: a record's seeds give exactly its deals, and a changed deal shows."""

from __future__ import annotations

import hashlib
import random

import pytest

from carioca import Game, RuleSet
from carioca.record import check_seeds, to_record
from carioca.server.tables import seed_hash


@pytest.mark.parametrize("preset", ["chile", "dos-libres", "online"])
def test_every_deal_is_the_one_its_seed_gives(preset: str) -> None:
    game = Game.new(RuleSet.preset(preset), ["Ana", "Beto", "Caro"], seed=12)
    rng = random.Random(12)
    while len(game.results) < 2:
        game.apply(rng.choice(list(game.legal_actions(game.seat_to_act))))  # type: ignore[arg-type]
    doc = to_record(game)
    checks = check_seeds(doc)
    assert [c["round"] for c in checks] == [1, 2, 3]
    assert all(c["matches"] for c in checks)
    # A card moved between a hand and the mazo is caught.
    deal = doc["rounds"][1]["deal"]
    swap = next(i for i, c in enumerate(deal["mazo"]) if c != deal["hands"][0][0])
    deal["hands"][0][0], deal["mazo"][swap] = deal["mazo"][swap], deal["hands"][0][0]
    # (the replay may stop in round 2, where a move now lacks its card)
    assert [c["matches"] for c in check_seeds(doc)][:2] == [True, False]


def test_the_commitment_is_the_sha256_of_the_seed_as_text() -> None:
    assert seed_hash(42) == hashlib.sha256(b"42").hexdigest()
    assert seed_hash(None) is None


def test_carioca_replay_checks_the_seeds(tmp_path: object) -> None:
    import json
    from pathlib import Path

    from typer.testing import CliRunner

    from carioca.cli import app

    game = Game.new(RuleSet.preset("chile"), ["Ana", "Beto"], seed=3)
    doc = to_record(game)
    path = Path(str(tmp_path)) / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    ok = CliRunner().invoke(app, ["replay", str(path), "--check-seeds"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output)["seeds"] == [{"round": 1, "seed": doc["rounds"][0]["seed"],
                                               "matches": True}]
    deal = doc["rounds"][0]["deal"]
    swap = next(i for i, c in enumerate(deal["mazo"]) if c != deal["hands"][0][0])
    deal["hands"][0][0], deal["mazo"][swap] = deal["mazo"][swap], deal["hands"][0][0]
    path.write_text(json.dumps(doc), encoding="utf-8")
    bad = CliRunner().invoke(app, ["replay", str(path), "--check-seeds"])
    assert bad.exit_code == 2
    assert json.loads(bad.output)["seeds"][0]["matches"] is False
    # A file that cannot be read, or a record that cannot be loaded, says why.
    for doc_text, words in (("{}", "not a carioca-record/1"), ('{"format": "carioca-record/1", '
                             '"rules": {"preset": "nope"}, "players": ["A", "B"], '
                             '"rounds": []}', "unknown preset")):
        path.write_text(doc_text, encoding="utf-8")
        said = CliRunner().invoke(app, ["replay", str(path), "--check-seeds"])
        assert said.exit_code == 2 and words in json.loads(said.output)["error"]["message"]
        assert "message" not in json.loads(said.output)  # the error says why, nothing else
    path.write_bytes(b"\xff\xfe{")
    said = CliRunner().invoke(app, ["replay", str(path), "--check-seeds"])
    assert said.exit_code == 2 and "error" in json.loads(said.output), said.output
    # A record with no seed, or with seeds but no deals, has nothing to check, and says so.
    path.write_text(json.dumps({**doc, "rounds": [{"seed": 5, "actions": []}]}), "utf-8")
    said = CliRunner().invoke(app, ["replay", str(path), "--check-seeds"])
    assert said.exit_code == 2
    assert "no deal can be checked" in json.loads(said.output)["message"], said.output
    missing = CliRunner().invoke(app, ["replay", str(path) + ".nope", "--check-seeds"])
    assert missing.exit_code == 2
    assert json.loads(missing.output)["error"]["message"].startswith("cannot read")


def test_small_game_seeds_keep_their_deals() -> None:
    """A tournament's or a test's game seed (32 bits or fewer) deals as it was measured: 32-bit
    round seeds. Only a wider game seed (an online table's) gives 53-bit ones."""
    from carioca.engine import round_seed

    # The seed stop 26's engine gave round 1 of game seed 27 (tests/records holds its deal).
    assert round_seed(27, 1) == 4_234_298_238
    assert all(round_seed(s, 1) < 2**32 for s in (0, 1, 2**32 - 1))
    wide = [round_seed(2**32 + k, 1) for k in range(200)]
    assert max(wide) > 2**52 and all(s < 2**53 for s in wide)


def test_the_commitment_is_salted_and_checks_out_at_the_end_of_the_round() -> None:
    # A bare hash of a 32-bit seed can be found by trying every seed: the server salts it,
    # reveals seed and salt when the round ends, and draws the seeds from a 128-bit game seed.
    import hashlib

    from carioca.bots import RandomBot
    from carioca.server import tables
    from carioca.store import SQLiteStore

    manager = tables.TableManager(SQLiteStore(":memory:"), bot_delay=0)
    table, _ = manager.create(name="Ana", preset="chile", options={"rounds": [1]}, seats=2,
                              bots={1: "random"}, turn_timer=0, steal_timer=10, hints=False)
    table.start()
    game = table.game
    assert game is not None and table.game_seed is not None
    assert table.game_seed.bit_length() > 64  # 128 random bits (a chance of 2^-64 to fail)
    shown = table.public_state()["fair"]  # type: ignore[index]
    seed = game.deals[0].seed
    # A round seed too wide to find from one's own hand by trying every one, and still a whole
    # number in the page's JSON (a chance of 2^-21 that a fair draw is this small).
    assert seed is not None and 2**32 < seed < 2**53
    assert shown["seed_hash"] != hashlib.sha256(str(seed).encode()).hexdigest()
    ana = RandomBot(7)
    while not game.is_over:
        seat = game.seat_to_act
        assert seat is not None
        if seat == 0:
            table.apply(0, ana.choose(game.view(0), game.legal_actions(0)).to_json(), None)
        else:
            question = table.bot_question(seat)
            assert question is not None
            table.bot_answer(seat, question[1], table.ask_bot(seat, *question))
    revealed = table.public_state()["fair"]["revealed"]  # type: ignore[index]
    assert revealed[0]["seed"] == seed and len(revealed[0]["salt"]) == 32
    salted = f"{revealed[0]['salt']}:{seed}".encode()
    assert hashlib.sha256(salted).hexdigest() == shown["seed_hash"]


def test_a_changed_seed_is_reported_as_a_seed_that_does_not_match(tmp_path: object) -> None:
    """--check-seeds answers the question even when the changed seed also stops the replay
    (the seed orders the reshuffles too): that round's seed does not match."""
    import json
    from pathlib import Path

    from typer.testing import CliRunner

    from carioca.cli import app

    game = Game.new(RuleSet.preset("chico"), ["Ana", "Beto"], seed=21)
    rng = random.Random(21)
    while len(game.results) < 2:
        game.apply(rng.choice(list(game.legal_actions(game.seat_to_act))))  # type: ignore[arg-type]
    doc = to_record(game)
    doc["rounds"][0]["seed"] += 1
    path = Path(str(tmp_path)) / "changed.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    said = CliRunner().invoke(app, ["replay", str(path), "--check-seeds"])
    assert said.exit_code == 2
    out = json.loads(said.output)
    assert out["seeds"][0] == {"round": 1, "seed": doc["rounds"][0]["seed"], "matches": False}
