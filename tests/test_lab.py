"""Tournaments and simulations: mirrored deals, statistics, the CSV files and plots, the same
results on every backend, and the two commands."""

from __future__ import annotations

import csv
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from carioca import Bajar, Draw, Game, RuleSet
from carioca.lab import (
    Config,
    GameResult,
    _bot_stats,
    _mean_ci,
    _RoundTracker,
    parse_options,
    play_game,
    run_tasks,
    simulate,
    tournament,
    tournament_tasks,
    write_simulation,
)

runner = CliRunner()


def _square(x: int) -> int:
    return x * x


def _logged(task: tuple[str, int]) -> int:
    """A task that writes down that it ran; the first one fails."""
    import time

    log, x = task
    if x == 0:
        raise KeyError("the first task fails")
    time.sleep(0.05)
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"{x}\n")
    return x


# --------------------------------------------------------------------------- tournaments

def test_every_bot_plays_every_seat_on_the_same_deals() -> None:
    tasks = tournament_tasks(["eager", "random", "search@2"], "chico", games=7, seed=5)
    assert len(tasks) == 9  # 7 games rounded up to 3 deals x 3 rotations
    by_deal: dict[int, list[tuple[str, ...]]] = {}
    for t in tasks:
        by_deal.setdefault(t.deal, []).append(t.lineup)
        assert len({u.seed for u in tasks if u.deal == t.deal}) == 1  # one deal, one seed
    assert len({t.seed for t in tasks}) == 3
    for lineups in by_deal.values():
        for seat in range(3):
            assert sorted(lineup[seat] for lineup in lineups) == ["eager", "random", "search@2"]
    # bots repeat to fill a bigger table, and still rotate through every seat
    tasks = tournament_tasks(["eager", "random"], "chico", games=4, players=4)
    assert [t.lineup for t in tasks] == [("eager", "random", "eager", "random"),
                                         ("random", "eager", "random", "eager")] * 2


def test_tournament_setup_errors() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        tournament_tasks(["eager", "random", "eager"], "chico", players=2)
    with pytest.raises(ValueError, match="unknown bot"):
        tournament_tasks(["eager", "wizard"], "chico")
    with pytest.raises(ValueError, match="preset"):
        tournament_tasks(["eager"], "chilee")
    with pytest.raises(ValueError, match="players"):
        tournament_tasks(["eager"] * 5, "online")


def test_mirrored_games_share_their_deals() -> None:
    tasks = tournament_tasks(["eager", "random"], "chico", games=2, seed=1)
    rules = tasks[0].config.rules()
    games = [play_game(rules, t.lineup, t.seed, t.bot_seeds) for t in tasks]
    assert games[0].deals[0] == games[1].deals[0]
    assert games[0].deals[0].hands[0] == games[1].deals[0].hands[0]


def test_statistics_over_deals() -> None:
    rules = RuleSet.preset("chico")
    results = [
        GameResult(0, 0, 0, ("a", "b"), (10, 50), (0,), (3, 1)),
        GameResult(1, 0, 1, ("b", "a"), (20, 20), (0, 1), (2, 2)),
        GameResult(2, 1, 0, ("a", "b"), (70, 30), (1,), (1, 3)),
        GameResult(3, 1, 1, ("b", "a"), (40, 0), (1,), (0, 4)),
    ]
    a = _bot_stats("a", results, rules)
    b = _bot_stats("b", results, rules)
    assert a.games == b.games == 4
    # deal 0: a won once and tied once (0.75); deal 1: won once (0.5)
    assert a.win_rate == pytest.approx(0.625)
    assert b.win_rate == pytest.approx(0.375)
    assert a.mean_points == pytest.approx((15 + 35) / 2)
    assert a.outs_per_game == pytest.approx(10 / 4)
    mean, ci = _mean_ci([0.75, 0.5])
    assert a.win_ci == pytest.approx(ci) and mean == pytest.approx(0.625)
    assert ci == pytest.approx(1.959964 * math.sqrt(0.03125) / math.sqrt(2), rel=1e-5)
    assert math.isnan(_mean_ci([1.0])[1])


def test_a_small_tournament() -> None:
    result = tournament(["eager", "random"], "chico", games=4, seed=2, workers=1,
                        options={"rounds": [1, 2]})
    assert len(result.games) == 4 and result.deals == 2
    stats = {s.name: s for s in result.stats}
    assert stats["eager"].games == stats["random"].games == 4
    assert stats["eager"].win_rate + stats["random"].win_rate == pytest.approx(1)
    for g in result.games:
        assert len(g.totals) == 2 and g.winners
        assert all(len(t) > 0 for t in g.times)
    assert stats["eager"].decisions > 0 and stats["eager"].p99_seconds > 0
    doc = result.to_json()
    assert doc["games"] == 4 and doc["options"] == {"rounds": [1, 2]}
    assert json.loads(json.dumps(doc)) == doc


# --------------------------------------------------------------------------- backends

def test_run_tasks_keeps_the_order_on_every_backend() -> None:
    tasks = list(range(37))
    want = [x * x for x in tasks]
    done: list[int] = []
    assert run_tasks(_square, tasks, workers=1, progress=done.append) == want
    assert sum(done) == 37
    done.clear()
    assert run_tasks(_square, tasks, workers=2, progress=done.append) == want
    assert sum(done) == 37
    assert run_tasks(_square, [], workers=2) == []


def test_a_failed_or_interrupted_run_drops_the_work_not_started(tmp_path: Path) -> None:
    """Ctrl-C (or a failing game) ends a run on local processes at once: the batches not
    started are dropped instead of played out before the error is seen."""
    log = tmp_path / "ran.txt"
    tasks = [(str(log), x) for x in range(80)]
    with pytest.raises(KeyError):
        run_tasks(_logged, tasks, workers=2)
    ran = log.read_text(encoding="utf-8").split() if log.exists() else []
    assert len(ran) < 40, len(ran)  # of the 79 that would have run to the end


def test_same_results_in_process_and_on_local_processes() -> None:
    kwargs = {"games": 4, "seed": 9, "options": {"rounds": [1]}}
    serial = tournament(["eager", "random"], "chico", workers=1, **kwargs)  # type: ignore[arg-type]
    pooled = tournament(["eager", "random"], "chico", workers=2, **kwargs)  # type: ignore[arg-type]
    assert serial.games == pooled.games
    assert serial.stats[0].win_rate == pooled.stats[0].win_rate
    configs = [Config.of("chico", {"rounds": [1, 2]})]
    a = simulate(configs, players=3, games=3, bot="eager", seed=4, workers=1)
    b = simulate(configs, players=3, games=3, bot="eager", seed=4, workers=2)
    assert a.summaries[0].rounds == b.summaries[0].rounds
    assert a.summaries[0].metrics == b.summaries[0].metrics


def test_same_results_on_ray() -> None:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        kwargs = {"games": 4, "seed": 9, "options": {"rounds": [1]}}
        serial = tournament(["eager", "random"], "chico", workers=1, **kwargs)  # type: ignore[arg-type]
        on_ray = tournament(["eager", "random"], "chico", ray_address="local", **kwargs)  # type: ignore[arg-type]
        assert serial.games == on_ray.games
        configs = [Config.of("chico", {"rounds": [1]})]
        a = simulate(configs, players=2, games=3, bot="eager", seed=1, workers=1)
        b = simulate(configs, players=2, games=3, bot="eager", seed=1, ray_address="local")
        assert a.summaries[0].rounds == b.summaries[0].rounds
        assert ray.is_initialized()  # a Ray the caller started is left running
    finally:
        ray.shutdown()


# --------------------------------------------------------------------------- simulations

def test_round_tracker_counts_turns_and_the_turn_of_going_down() -> None:
    rules = RuleSet.preset("chico", rounds=[1, 2])
    trackers: list[_RoundTracker] = []

    def start(game: Game) -> _RoundTracker:
        trackers.append(_RoundTracker(game))
        return trackers[-1]

    game = play_game(rules, ["eager", "eager", "eager"], 3, [1, 2, 3], on_round_start=start)
    for number, (tracker, log) in enumerate(zip(trackers, game.log, strict=True), 1):
        stats = tracker.stats(game)
        assert stats.number == number
        draws = [a for a in log if isinstance(a, Draw)]
        assert stats.turns == len(draws)
        first = log[0].seat
        order = [(first + k) % 3 for k in range(3)]
        for position, seat in enumerate(order):
            turns = 0
            down = 0
            for a in log:
                if a.seat == seat and isinstance(a, Draw):
                    turns += 1
                if a.seat == seat and isinstance(a, Bajar) and not down:
                    down = turns
            assert stats.down_turn[position] == down
        result = game.results[number - 1]
        assert stats.scores == tuple(result.scores[s] for s in order)
        assert stats.went_out == (None if result.went_out is None
                                  else order.index(result.went_out))


def test_a_simulation_measures_what_it_says(tmp_path: Path) -> None:
    base = Config.of("chico")
    short = Config.of("chico", {"max_reshuffles": 0})
    result = simulate([base, short], players=3, games=4, bot="eager", seed=3, workers=1)
    a, b = result.summaries
    assert len(a.rounds) == 16 and len(b.rounds) == 16
    m = a.metrics
    assert m["rounds"] == 16
    turns = [r.turns for r in a.rounds]
    assert m["turns_per_round_mean"] == pytest.approx(sum(turns) / 16)
    assert m["turns_per_player_mean"] == pytest.approx(sum(turns) / 16 / 3)
    nobody = sum(1 for r in a.rounds if r.went_out is None)
    assert m["nobody_out_rate"] == pytest.approx(nobody / 16)
    # the shares of going out by position and of nobody out add up to one
    assert sum(o for o, _ in a.by_position) + m["nobody_out_rate"] == pytest.approx(1)
    assert list(a.down_by_turn) == sorted(a.down_by_turn)
    assert 0 <= a.down_by_turn[-1] <= 1 - m["never_down_rate"] + 1e-9
    assert sum(a.seat_wins) == pytest.approx(1)
    assert [m[f"seat_{s}_win_rate"] for s in range(3)] == list(a.seat_wins)
    # The first seat's advantage and its interval, by hand, with the games as the samples.
    fair = 1 / 3
    xs = [(sum(r.went_out == 0 for r in rs) - fair * sum(r.went_out is not None for r in rs),
           len(rs)) for rs in (a.rounds[i:i + 4] for i in range(0, 16, 4))]
    adv = sum(x for x, _ in xs) / 16
    assert m["first_seat_advantage"] == pytest.approx(adv)
    spread = sum((x - adv * k) ** 2 for x, k in xs) * 4 / 3
    assert m["first_seat_advantage_ci"] == pytest.approx(1.959963984540054 * spread ** 0.5 / 16)
    assert [n for n, *_ in a.by_round] == [1, 2, 3, 4]
    # with no reshuffle the mazo runs out sooner: more rounds end with nobody out, and sooner
    assert b.metrics["nobody_out_rate"] >= a.metrics["nobody_out_rate"]
    assert b.metrics["turns_per_round_mean"] <= a.metrics["turns_per_round_mean"]
    # the same seeds on both sides: the first turns of each game are the same deals
    assert a.rounds[0].contract == b.rounds[0].contract

    paths = write_simulation(result, tmp_path)
    names = {p.name for p in paths}
    assert {"summary.csv", "rounds.csv", "down_by_turn.csv", "positions.csv",
            "by_round.csv"} <= names
    for plot in ("turns_per_round", "down_by_turn", "penalty_by_round", "positions"):
        assert (tmp_path / f"{plot}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert "<svg" in (tmp_path / f"{plot}.svg").read_text()[:1000]
    with (tmp_path / "summary.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    labels = Counter(r["config"] for r in rows)
    assert labels == {"chico": len(m), "chico max_reshuffles=0": len(m)}
    got = {r["metric"]: float(r["value"]) for r in rows if r["config"] == "chico"
           and r["value"]}
    assert got["turns_per_round_mean"] == pytest.approx(m["turns_per_round_mean"], rel=1e-5)
    with (tmp_path / "rounds.csv").open() as fh:
        assert sum(1 for _ in csv.DictReader(fh)) == 32


def test_options_and_configs() -> None:
    assert parse_options(["hand_size=11", "wrap=true", "buying=penalty_card"]) == {
        "hand_size": 11, "wrap": True, "buying": "penalty_card"}
    with pytest.raises(ValueError, match="option=value"):
        parse_options(["hand_size"])
    config = Config.of("chile", {"hand_size": 11})
    assert config.label == "chile hand_size=11"
    assert all(r.hand_size == 11 for r in config.rules().rounds)
    with pytest.raises(ValueError, match="unknown option"):
        Config.of("chile", {"hand_sise": 11})


@pytest.mark.parametrize("options, label", [
    ({"tie_break": "extra_round"}, "chile tie_break=extra_round"),
    ({"rounds": [1, 3], "wrap": True}, "chile rounds=[1,3] wrap=true"),
    ({"max_wilds_per_meld": None}, "chile max_wilds_per_meld=null"),
])
def test_a_label_reads_as_typed(options: dict[str, object], label: str) -> None:
    """The label names a side of a comparison in the CSVs and plots as ``--set`` takes it (text
    without JSON quotes), and it reads back to the same options."""
    config = Config.of("chile", options)
    assert config.label == label
    assert parse_options(label.split()[1:]) == options


# --------------------------------------------------------------------------- the commands

def _app() -> typer.Typer:
    from carioca.cli_lab import register

    app = typer.Typer()
    register(app)

    @app.callback()
    def main() -> None:
        """(a group, so the commands keep their names)"""

    return app


def test_tournament_command_json() -> None:
    result = runner.invoke(_app(), ["tournament", "--bots", "eager,random", "--preset",
                                    "chico", "--games", "2", "--set", "rounds=[1]",
                                    "--workers", "1", "--json", "--seed", "4"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["games"] == 2 and doc["players"] == 2
    assert [b["name"] for b in doc["bots"]] == ["eager", "random"]
    assert sum(b["win_rate"] for b in doc["bots"]) == pytest.approx(1)
    assert doc["bots"][0]["win_ci"] is None  # one deal: no interval (JSON has no NaN)
    assert "NaN" not in result.output
    same = runner.invoke(_app(), ["tournament", "--bots", "eager,random", "--preset",
                                  "chico", "--games", "2", "--set", "rounds=[1]",
                                  "--workers", "2", "--json", "--seed", "4"])
    again = json.loads(same.output)
    for b1, b2 in zip(doc["bots"], again["bots"], strict=True):
        assert b1["win_rate"] == b2["win_rate"] and b1["mean_points"] == b2["mean_points"]


def test_tournament_command_table() -> None:
    result = runner.invoke(_app(), ["tournament", "--bots", "eager,random", "--preset",
                                    "chico", "--games", "2", "--set", "rounds=[1]",
                                    "--workers", "1", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "eager" in result.output
    assert "seat-games" in result.output and "mean points" in result.output
    # Under rounds scoring the "points" are rounds won, and more is better: the header says so.
    from rich.console import Console

    from carioca.cli_lab import tournament_table

    wide = Console(width=200, record=True)
    wide.print(tournament_table(tournament(["eager", "random"], "chico", games=2, workers=1,
                                           options={"rounds": [1], "scoring": "rounds"})))
    text = wide.export_text()
    assert "mean rounds won" in text and "mean points" not in text


def test_a_win_rate_interval_never_reads_past_0_or_100_percent() -> None:
    """A bot that won every deal of 20 shows the interval's bounds, not "100.0% ± 16"."""
    from carioca.cli_lab import _pct

    assert _pct(0.6, 0.02) == "60.0% ± 2.0"
    assert _pct(1.0, 0.16) == "100.0% (84.0-100.0%)"
    assert _pct(0.05, 0.1) == "5.0% (0.0-15.0%)"
    assert _pct(0.5, float("nan")) == "50.0% ± ?"


def test_decision_times_under_a_tenth_of_a_millisecond_still_show() -> None:
    """The random and eager bots decide in microseconds: the table must not print 0.0."""
    from carioca.cli_lab import _ms

    assert _ms(0.0) == "0.0"
    assert _ms(1.2e-5) == "0.012"
    assert _ms(3.4e-6) == "0.0034"
    assert _ms(0.1234) == "123.4"
    assert _ms(0.0001) == "0.1"


def test_tournament_games_out_pairs_two_runs(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """--games-out writes one line a game, with its rounds; two runs on the same seed pair
    game by game (bench/bench_bots.py), and a file that cannot be written is refused before
    any play."""
    args = ["tournament", "--preset", "chico", "--games", "4", "--set", "rounds=[1]",
            "--workers", "1", "--seed", "3", "--json"]
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    one = runner.invoke(_app(), [*args, "--bots", "eager,random", "--games-out", str(first)])
    two = runner.invoke(_app(), [*args, "--bots", "greedy,random", "--games-out", str(second)])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    lines = [json.loads(line) for line in first.read_text().splitlines()]
    assert [(g["deal"], g["rotation"]) for g in lines] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert lines[1]["lineup"] == ["random", "eager"]
    wins = sum(1 / len(g["winners"]) for g in lines
               for seat in g["winners"] if g["lineup"][seat] == "eager")
    assert wins / 4 == pytest.approx(json.loads(one.output)["bots"][0]["win_rate"])
    assert all(len(g["max_seconds"]) == 2 for g in lines)
    for g in lines:  # one round each (rounds=[1]): its scores are the game's totals
        (only,) = g["rounds"]
        assert only["scores"] == g["totals"]
        assert only["went_out"] is None or g["totals"][only["went_out"]] == 0

    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "bench_bots", Path(__file__).resolve().parent.parent / "bench" / "bench_bots.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    paired = bench.per_game(bench.load(first), "eager")
    assert sorted(paired) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert bench.main(["paired", str(first), str(second)]) == 0
    assert bench.main(["paired", str(first), str(second), "--b", "wizard"]) == 2

    capsys.readouterr()
    assert bench.main(["rounds", str(first)]) == 0
    row = capsys.readouterr().out.splitlines()[-1].split()
    outs = sum(g["lineup"][g["rounds"][0]["went_out"]] == "eager" for g in lines
               if g["rounds"][0]["went_out"] is not None)
    paid = sum(g["totals"][g["lineup"].index("eager")] for g in lines) / 4
    assert row[:3] == ["1", "4", f"{100 * outs / 4:.1f}%"]
    assert float(row[4]) == pytest.approx(paid, abs=0.05)
    assert bench.main(["rounds", str(first), "--bot", "wizard"]) == 2

    refused = runner.invoke(_app(), [*args, "--bots", "eager,random", "--games-out",
                                     str(tmp_path / "no" / "such" / "dir.jsonl")])
    assert refused.exit_code != 0
    assert "could not write" in refused.output and "Traceback" not in refused.output
    # An earlier run's games are never written over; an empty file (mktemp's) is taken.
    before = first.read_text()
    again = runner.invoke(_app(), [*args, "--bots", "eager,random", "--games-out", str(first)])
    assert again.exit_code == 2 and "already holds games" in again.output, again.output
    assert first.read_text() == before
    empty = tmp_path / "empty.jsonl"
    empty.touch()
    fresh = runner.invoke(_app(), [*args, "--bots", "eager,random", "--games-out", str(empty)])
    assert fresh.exit_code == 0
    # A file filled by another run while this one played: the games go beside it.
    from carioca.cli_lab import _write_games

    result = tournament(["eager", "random"], "chico", {"rounds": [1]}, games=2, workers=1)
    written = _write_games(first, result)
    assert written == tmp_path / "a.1.jsonl" and first.read_text() == before
    assert len(written.read_text().splitlines()) == 2
    assert _write_games(first, result) == tmp_path / "a.2.jsonl"
    assert [json.loads(line)["totals"] for line in empty.read_text().splitlines()] == [
        g["totals"] for g in lines]


def test_the_lab_commands_refuse_bad_input_before_they_run(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    cases = [
        (["tournament", "--bots", ""], "at least one bot"),
        (["tournament", "--bots", ",,,"], "at least one bot"),
        (["tournament", "--bots", "greedy"], "one bot, 'greedy', has nobody to play"),
        (["tournament", "--bots", "eager,random", "--games", "0"], "--games"),
        (["tournament", "--bots", "eager,random", "--workers", "0"], "--workers"),
        (["simulate", "--games", "-3"], "--games"),
        (["simulate", "--games", "2", "--out", str(afile)], "is a file"),
        # Ray would retry a dead address for minutes; a clear word comes in seconds.
        (["tournament", "--bots", "eager,random", "--preset", "chico", "--games", "2",
          "--ray", "127.0.0.1:1"], "no Ray cluster answers at 127.0.0.1:1"),
        (["simulate", "--games", "2", "--ray", "nowhere"], "is not a Ray address"),
        (["simulate", "--games", "2", "--compare", "chile"], "nothing to compare"),
        (["simulate", "--games", "2", "--set", "hand_size=11", "--compare-set",
          "hand_size=11"], "nothing to compare"),
        # An option set to the preset's own value changes nothing: the rules, not the labels.
        (["simulate", "--games", "2", "--preset", "chico", "--compare-set", "buying=off"],
         "nothing to compare"),
    ]
    for args, words in cases:
        result = runner.invoke(_app(), [*args, "--no-progress"])
        assert result.exit_code == 2, (args, result.output)
        assert words in result.output.replace("\n", " "), (args, result.output)
        assert "Traceback" not in result.output and not isinstance(result.exception,
                                                                  ZeroDivisionError)


def test_a_refused_simulation_leaves_no_folder_and_missing_extras_are_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = tmp_path / "fresh"
    result = runner.invoke(_app(), ["simulate", "--out", str(fresh), "--set", "nonsense",
                                    "--no-progress"])
    assert result.exit_code == 2 and not fresh.exists()
    import importlib.util
    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in ("matplotlib", "ray") else found(name, *a))
    for args, words in (
            (["simulate", "--games", "2", "--out", str(fresh)], "pip install 'carioca[lab]'"),
            (["simulate", "--games", "2", "--no-plots", "--ray", "local", "--out", str(fresh)],
             "--ray needs Ray"),
            (["tournament", "--bots", "eager", "--ray", "local"], "--ray needs Ray")):
        result = runner.invoke(_app(), [*args, "--no-progress"])
        assert result.exit_code == 2 and words in result.output, (args, result.output)
        assert not fresh.exists()


def test_simulate_command(tmp_path: Path) -> None:
    out = tmp_path / "sim"
    result = runner.invoke(_app(), ["simulate", "--preset", "chico", "--players", "2",
                                    "--games", "2", "--bot", "eager", "--set", "rounds=[1]",
                                    "--compare-set", "rounds=[1]", "--compare-set",
                                    "hand_size=11", "--out", str(out), "--workers", "1",
                                    "--no-progress", "--no-plots"])
    assert result.exit_code == 0, result.output
    assert "nobody_out_rate" in result.output and "difference" in result.output
    assert (out / "summary.csv").exists() and not (out / "positions.png").exists()
    with (out / "summary.csv").open() as fh:
        configs = {r["config"] for r in csv.DictReader(fh)}
    assert configs == {"chico rounds=[1]", "chico rounds=[1] hand_size=11"}


@pytest.mark.parametrize("args", [
    ["tournament", "--bots", "eager,wizard", "--preset", "chico"],
    ["tournament", "--bots", "eager", "--preset", "nope"],
    ["simulate", "--preset", "chico", "--set", "hand_sise=3", "--bot", "eager"],
    ["simulate", "--preset", "chico", "--players", "9", "--bot", "eager"],
])
def test_commands_fail_in_words(args: list[str]) -> None:
    result = runner.invoke(_app(), [*args, "--workers", "1", "--no-progress"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


# --------------------------------------------------------------------------- audit fixes

def test_a_simulation_counts_how_often_the_mazo_runs_out(tmp_path: Path) -> None:
    """With the mazo rebuilt from the pozo (chile, chico: as often as it runs out) nobody-out
    rounds are rare, yet the mazo runs out often: the simulation must say how often, and
    why a round ended with nobody out (the mazo could not be rebuilt, or the turn cap)."""
    rebuilt = Config.of("chico", {"rounds": [4], "max_turns_per_round": 200})
    no_rebuild = Config.of("chico", {"rounds": [4], "max_reshuffles": 0})
    result = simulate([rebuilt, no_rebuild], players=2, games=2, bot="random", seed=1,
                      workers=1)
    a, b = result.summaries
    assert all(r.went_out is None for r in a.rounds + b.rounds)  # random bots never go out
    # 200 turns go through the mazo more than once: rebuilt, then the turn cap
    assert all(r.reshuffles >= 1 and r.ended == "turn_cap" for r in a.rounds)
    assert a.metrics["mazo_ran_out_rate"] == 1
    assert a.metrics["reshuffles_per_round"] == pytest.approx(
        sum(r.reshuffles for r in a.rounds) / len(a.rounds))
    assert a.metrics["turn_cap_rate"] == 1
    # no rebuilding: the round ends when the mazo runs out
    assert all(r.reshuffles == 0 and r.ended == "mazo" for r in b.rounds)
    assert b.metrics["mazo_ran_out_rate"] == 1 and b.metrics["turn_cap_rate"] == 0
    # nobody went out: no first-seat advantage to measure, rather than 0 ± 0
    assert math.isnan(a.metrics["first_seat_advantage"])
    assert math.isnan(a.metrics["first_seat_advantage_ci"])
    # the tracker's count is the engine's
    rules = rebuilt.rules()
    trackers: list[_RoundTracker] = []
    seen: list[int] = []

    def start(game: Game) -> _RoundTracker:
        trackers.append(_RoundTracker(game))
        return trackers[-1]

    def watch(game: Game) -> object:
        tracker = start(game)

        def observe(g: Game, action: object, seconds: float) -> None:
            tracker(g, action, seconds)  # type: ignore[arg-type]
            if not g.is_over and g.results == []:
                seen.append(g.view(None).reshuffles)
        return observe

    game = play_game(rules, ["random", "random"], 5, [1, 2], on_round_start=watch)  # type: ignore[arg-type]
    assert trackers[0].stats(game).reshuffles == max(seen) >= 1
    write_simulation(result, tmp_path, plots=False)
    with (tmp_path / "rounds.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert {r["ended"] for r in rows} == {"turn_cap", "mazo"}
    assert all(int(r["reshuffles"]) >= 1 for r in rows if r["ended"] == "turn_cap")
    with (tmp_path / "by_round.csv").open() as fh:
        assert [float(r["mazo_ran_out_rate"]) for r in csv.DictReader(fh)] == [1.0, 1.0]


def test_a_mazo_emptied_by_the_last_draw_of_a_round_ran_out() -> None:
    """Game 3 of seed 3 (chile, 4 greedy seats), round 2: a player draws the mazo's last card
    and goes out before anyone needs another. The mazo ran out all the same."""
    result = simulate([Config.of("chile")], players=4, games=3, seed=3, workers=1)
    rounds = result.summaries[0].rounds
    last_card = rounds[8 * 2 + 1]
    assert (last_card.number, last_card.reshuffles, last_card.ended) == (2, 0, "out")
    assert last_card.emptied and last_card.mazo_ran_out
    assert result.summaries[0].metrics["mazo_ran_out_rate"] == pytest.approx(
        sum(r.mazo_ran_out for r in rounds) / len(rounds))
    assert sum(r.mazo_ran_out for r in rounds) > sum(r.reshuffles > 0 for r in rounds)


def test_simulation_files_are_all_of_one_run(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A run writes all its files or none: a folder in the way of one is named before
    anything is written, and the plots of an earlier run do not stay beside new CSVs."""
    result = simulate([Config.of("chico", {"rounds": [1]})], players=2, games=2, bot="eager",
                      seed=1, workers=1)
    write_simulation(result, tmp_path)
    assert (tmp_path / "positions.png").is_file()
    other = simulate([Config.of("familia", {"rounds": [1]})], players=2, games=2, bot="eager",
                     seed=2, workers=1)
    names = {p.name for p in write_simulation(other, tmp_path, plots=False)}
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)
    assert "familia" in (tmp_path / "summary.csv").read_text()
    summary = (tmp_path / "summary.csv").read_bytes()
    # A plot fails after the CSVs are written: nothing of the run is put in place.
    from carioca import lab

    def failing_plots(*args: Any) -> None:
        raise OSError(28, "No space left on device", str(tmp_path / "positions.png"))

    with monkeypatch.context() as patch:
        patch.setattr(lab, "_plots", failing_plots)
        with pytest.raises(OSError):
            write_simulation(result, tmp_path)
    assert (tmp_path / "summary.csv").read_bytes() == summary  # the last run, untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)  # nothing left aside
    (tmp_path / "positions.csv").unlink()
    (tmp_path / "positions.csv").mkdir()
    with pytest.raises(OSError) as failed:
        write_simulation(result, tmp_path)
    assert failed.value.filename == str(tmp_path / "positions.csv")
    assert (tmp_path / "summary.csv").read_bytes() == summary
    # A folder of someone's own plots, with no simulation in it, loses none of them.
    own = tmp_path / "own"
    own.mkdir()
    (own / "positions.png").write_bytes(b"mine")
    write_simulation(other, own, plots=False)
    assert (own / "positions.png").read_bytes() == b"mine"


def test_the_simulation_table_keeps_metric_names_whole() -> None:
    from rich.console import Console

    from carioca.cli_lab import simulation_table

    a = Config.of("chico", {"rounds": [1], "max_reshuffles": 0})
    b = Config.of("chico", {"rounds": [1], "max_turns_per_round": 20})
    result = simulate([a, b], players=2, games=2, bot="random", seed=1, workers=1)
    console = Console(width=80, record=True)
    console.print(simulation_table(result))
    text = console.export_text()
    for name in ("turns_per_round_mean", "turns_per_round_median", "first_seat_advantage_ci"):
        assert f"│ {name} " in text
    assert "…" not in text


def test_a_long_round_within_the_turn_cap_is_played_out() -> None:
    """max_turns_per_round may be set up to 100,000: a round that long (two random bots
    draw and discard: two actions a turn) must end at the cap, not stop the tournament with
    a traceback ('a round ... did not end')."""
    rules = RuleSet.preset("chile", rounds=[7], max_turns_per_round=12_000)
    game = play_game(rules, ["random", "random"], 1706376528, [1, 2])
    assert game.is_over and game.results[0].went_out is None


def test_simulation_plots_show_shares_and_whole_positions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The turns histogram is labelled 'share of rounds': its bars must add up to one (not a
    density over bins wider than one turn, and no round left past the last bin); the
    positions are whole numbers."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from carioca import lab

    result = simulate([Config.of("chico", {"rounds": [1, 2]})], players=3, games=3,
                      bot="eager", seed=2, workers=1)
    figures: dict[str, Any] = {}
    real_close = plt.close
    monkeypatch.setattr(plt, "close",
                        lambda fig: figures.setdefault(fig.axes[0].get_title(), fig))
    lab._plots(result, tmp_path, [])
    monkeypatch.undo()
    hist = figures["How long a round lasts"].axes[0]
    assert hist.get_ylabel() == "share of rounds"
    assert sum(p.get_height() for p in hist.patches) == pytest.approx(1)
    positions = figures["First-seat advantage"].axes[0]
    assert list(positions.get_xticks()) == [0, 1, 2]
    for fig in figures.values():
        real_close(fig)


def test_a_rounds_scored_game_has_no_penalty_by_round(tmp_path: Path) -> None:
    """familia scores rounds won, not points in hand: no penalty to show, per round too."""
    result = simulate([Config.of("familia", {"rounds": [1]})], players=2, games=2,
                      bot="eager", seed=1, workers=1)
    summary = result.summaries[0]
    assert math.isnan(summary.metrics["mean_penalty_per_round"])
    assert all(math.isnan(p) for _, _, _, p, *_ in summary.by_round)
    # ... and so no penalty chart: an empty one would look broken.
    names = {p.name for p in write_simulation(result, tmp_path)}
    assert "turns_per_round.png" in names and "penalty_by_round.png" not in names


def test_a_bot_that_wins_every_deal_is_not_called_certain() -> None:
    # 100% over a handful of deals is not "± 0": the interval is as wide as the deals allow.
    result = tournament(["greedy", "random"], "chile", {"rounds": [1]}, games=12, players=2,
                        seed=3, workers=1)
    greedy = next(s for s in result.stats if s.name == "greedy")
    assert greedy.win_rate == 1.0
    assert greedy.win_ci == pytest.approx(1.959963984540054 ** 2 / (6 + 1.959963984540054 ** 2))
    points = next(s for s in result.stats if s.name == "random")
    assert points.win_rate == 0.0 and points.win_ci > 0.3


def test_a_bot_in_two_seats_that_always_wins_is_not_called_certain() -> None:
    # eager in two of four seats wins every game with one of them: 50% a seat, every deal
    # alike, and still not "± 0" over a handful of deals.
    result = tournament(["eager", "random", "random"], "familia", {"rounds": [1]}, games=8,
                        players=4, seed=1, workers=1)
    eager = next(s for s in result.stats if s.name == "eager")
    assert all(any(g.lineup[w] == "eager" for w in g.winners) for g in result.games)
    assert eager.win_rate == 0.5
    assert eager.win_ci == pytest.approx(1.959963984540054 ** 2 / (2 + 1.959963984540054 ** 2))


def test_a_bot_against_itself_is_exactly_even_not_uncertain() -> None:
    # The same bot in both seats shares every deal: 50% with no spread is exactly 50%.
    result = tournament(["eager"], "chile", {"rounds": [1]}, games=8, players=2, seed=1,
                        workers=1)
    (eager,) = result.stats
    assert eager.win_rate == 0.5 and eager.win_ci == 0.0
