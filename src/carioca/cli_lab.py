"""``carioca tournament`` and ``carioca simulate``: the lab on the command line.

:func:`register` adds both commands to a Typer app (the ``carioca`` app calls it)::

    carioca tournament --bots greedy,search,random --preset chile --games 2000
    carioca simulate --preset chile --players 4 --games 5000 --set hand_size=11 --compare chile
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from .bots.levels import BOTS
from .lab import (
    Config,
    SimulationResult,
    TournamentResult,
    check_simulation,
    check_simulation_folder,
    check_tournament,
    default_workers,
    parse_options,
    simulate,
    tournament,
    write_games,
    write_simulation,
)
from .rules import RulesError, RuleSet

__all__ = ["register", "tournament_table", "simulation_table"]

EXIT_ERROR = 2

SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", help="Change a rule: option=value (JSON when it can be read as JSON)."),
]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed of the deals and the bots.")]
WorkersOption = Annotated[
    int | None,
    typer.Option("--workers", min=1, help="Local processes (default: every core; 1: this "
                                          "process).")]
RayOption = Annotated[
    str | None,
    typer.Option("--ray", help="Run on a Ray cluster at this address ('local': start Ray here).")]
ProgressOption = Annotated[bool, typer.Option("--progress/--no-progress",
                                              help="Show a progress bar.")]

MAX_GAMES = 10_000_000
"""The most games a run may ask for: its tasks are listed before the first is played."""


def _fail(message: str) -> typer.Exit:
    Console(stderr=True).print(f"carioca: {message}", style="red", highlight=False,
                               markup=False, soft_wrap=True)
    return typer.Exit(EXIT_ERROR)


@contextmanager
def _bar(total: int, label: str, show: bool) -> Iterator[Callable[[int], None]]:
    if not show:
        yield lambda _k: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("games"), TimeElapsedColumn(), TextColumn("eta"),
               TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=False) as progress:
        task = progress.add_task(label, total=total)
        yield lambda k: progress.advance(task, k)


def _pct(x: float, ci: float) -> str:
    """A share with its 95% interval; an interval that would cross 0% or 100% is shown as
    its bounds ("100.0% (61.0-100.0%)"), since "± 39" would read as reaching 139%."""
    if math.isnan(ci):
        return f"{100 * x:.1f}% ± ?"
    if x - ci < 0 or x + ci > 1:
        low, high = max(0.0, x - ci), min(1.0, x + ci)
        return f"{100 * x:.1f}% ({100 * low:.1f}-{100 * high:.1f}%)"
    return f"{100 * x:.1f}% ± {100 * ci:.1f}"


def _num(x: float, ci: float) -> str:
    ci_text = "?" if math.isnan(ci) else f"{ci:.1f}"
    return f"{x:.1f} ± {ci_text}"


def tournament_table(result: TournamentResult) -> Table:
    """The tournament's results as a table (95% intervals)."""
    title = (f"{result.config.label}: {len(result.games)} games, {result.players} seats, "
             f"{result.deals} deals × {result.players} rotations")
    table = Table(title=title)
    # A bot in two seats of a game counts two games; under rounds scoring the points are
    # rounds won (more is better), which "mean points" alone would not say.
    points = ("mean rounds won (95% CI)" if result.config.rules().scoring == "rounds"
              else "mean points (95% CI)")
    for head in ("bot", "seat-games", "win rate (95% CI)", points, "outs/game",
                 "decision ms p50/p99/max"):
        table.add_column(head, justify="left" if head == "bot" else "right")
    for s in result.stats:
        table.add_row(s.name, str(s.games), _pct(s.win_rate, s.win_ci),
                      _num(s.mean_points, s.points_ci), f"{s.outs_per_game:.2f}",
                      " / ".join(_ms(x) for x in (s.p50_seconds, s.p99_seconds,
                                                  s.max_seconds)))
    return table


def _ms(seconds: float) -> str:
    """Seconds in milliseconds: one decimal, or two significant digits under 0.1 ms (the
    random and eager bots decide in a few microseconds, which one decimal shows as 0.0)."""
    ms = 1000 * seconds
    if ms == 0 or ms >= 0.1:
        return f"{ms:.1f}"
    return f"{ms:.2g}"


def simulation_table(result: SimulationResult) -> Table:
    """The simulation's headline figures, one column per configuration."""
    # Names whole, labels folded: a cut name ("turns_per_round_me…") could be two metrics.
    table = Table(title="Simulation")
    table.add_column("metric", no_wrap=True)
    for s in result.summaries:
        table.add_column(s.config.label, justify="right", overflow="fold")
    if len(result.summaries) == 2:
        table.add_column("difference", justify="right", overflow="fold")
    for key in result.summaries[0].metrics:
        values = [s.metrics[key] for s in result.summaries]
        cells = [_cell(v) for v in values]
        if len(values) == 2:
            # An interval's width has no difference worth showing.
            cells.append("" if key.endswith("_ci") else _cell(values[1] - values[0]))
        table.add_row(key, *cells)
    return table


def _cell(value: float) -> str:
    if math.isnan(value):
        return "-"
    return f"{value:.0f}" if value == int(value) else f"{value:.3f}"


def _holds_something(path: Path) -> bool:
    return path.is_file() and path.stat().st_size > 0


def _write_games(path: Path, result: TournamentResult | None) -> Path:
    """Write ``result``'s games to ``path`` (None: only check it can be written), or stop with
    a message a player understands; the file written. A file that holds games is never
    written over (an earlier run's take hours to play again): should one have appeared there
    during the run (another run given the same name), the games go beside it, to a new name."""
    if result is None and _holds_something(path):
        raise _fail(f"{path} already holds games: choose another name (or remove it first)")
    target = path
    if result is not None:
        number = 1
        while _holds_something(target):
            target = path.with_name(f"{path.stem}.{number}{path.suffix}")
            number += 1
    try:
        with target.open("a" if result is None else "w", encoding="utf-8") as sink:
            if result is not None:
                write_games(result, sink)
    except OSError as exc:
        raise _fail(f"could not write {target}: {exc.strerror or exc}") from None
    return target


def _needs(module: str, why: str) -> None:
    """Fail before the games, not after them: an optional package the command needs."""
    if importlib.util.find_spec(module) is None:
        raise _fail(why)


def _same_rules(a: Config, b: Config) -> bool:
    """Whether two configurations play the same game (an option set to its preset's value
    changes nothing): the rules as data, not the labels."""
    def play(rules: RuleSet) -> dict[str, object]:
        return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)
                if f.name not in ("options", "preset_name")}

    return play(a.rules()) == play(b.rules())


def _check_writable_folder(out: Path) -> None:
    """Fail before the games, not after: ``out`` (made if missing) must take files."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".carioca-", delete=True):
            pass
    except OSError as exc:
        raise _fail(f"cannot write to {out}: {exc.strerror or exc}") from None


def register(app: typer.Typer) -> None:
    """Add ``tournament`` and ``simulate`` to ``app``."""

    @app.command("tournament")
    def tournament_command(
        bots: Annotated[str, typer.Option(
            "--bots", help="Bots, comma separated: " + ", ".join(BOTS) + ", or search@N "
                           "(N playouts per decision; search@N:POLICY plays them with greedy, "
                           "the default, lookahead, bottleneck, eager or random).")]
        = "greedy,search,random",
        preset: Annotated[str, typer.Option("--preset", help="The rules.")] = "chile",
        games: Annotated[int, typer.Option("--games", min=1, max=MAX_GAMES,
                                           help="Games (rounded up to whole deals × "
                                                "rotations).")]
        = 200,
        players: Annotated[int | None, typer.Option(
            "--players", help="Seats (default: one per bot; bots repeat to fill them).")]
        = None,
        set_options: SetOption = None,
        seed: SeedOption = 0,
        workers: WorkersOption = None,
        ray: RayOption = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")]
        = False,
        games_out: Annotated[Path | None, typer.Option(
            "--games-out", help="Also write every game's result to this file, new or empty, "
                                "one JSON object a line (to pair two runs on the same deals)."
        )] = None,
        show_progress: ProgressOption = True,
    ) -> None:
        """Bots against each other on the same deals, in every seat.

        Win rate and mean points per bot, with 95% confidence intervals."""
        names = [b.strip() for b in bots.split(",") if b.strip()]
        if not names:
            raise _fail("name at least one bot: --bots greedy,search")
        if ray:
            _needs("ray", "--ray needs Ray: pip install 'carioca[lab]'")
        try:
            options = parse_options(set_options)
            seats = players or len(names)
            total = max(1, math.ceil(games / seats)) * seats
            check_tournament(names, preset, options, players)  # refused before the bar shows
            if games_out is not None:
                # Fail before hours of play, not after: the file must be writable and new (or
                # empty); appending nothing leaves it as it was until the results come.
                _write_games(games_out, None)
            started = time.perf_counter()
            # The bar goes to stderr: with --json too, where a person watches it.
            bar = show_progress and (not as_json or sys.stderr.isatty())
            with _bar(total, "tournament", bar) as advance:
                result = tournament(names, preset, options, games=games, players=players,
                                    seed=seed, workers=workers, ray_address=ray,
                                    progress=advance)
        except (RulesError, ValueError) as exc:
            raise _fail(str(exc)) from None
        if as_json:
            typer.echo(json.dumps(result.to_json()))
        else:
            out = Console(markup=False)  # bot names and paths are shown as they are
            out.print(tournament_table(result))
            count = workers or default_workers()
            where = f"Ray at {ray}" if ray else f"{count} process{'es' if count != 1 else ''}"
            out.print(f"{time.perf_counter() - started:.1f} s on {where}; seed {seed}. "
                      "Intervals are over deals (normal approximation).", style="dim",
                      highlight=False)
        if games_out is not None:
            written = _write_games(games_out, result)
            if written != games_out:
                typer.echo(f"{games_out} got games from elsewhere during the run: these went "
                           f"to {written}", err=True)

    @app.command("simulate")
    def simulate_command(
        preset: Annotated[str, typer.Option("--preset", help="The rules.")] = "chile",
        players: Annotated[int, typer.Option("--players", help="Seats.")] = 4,
        games: Annotated[int, typer.Option("--games", min=1, max=MAX_GAMES,
                                           help="Games per configuration.")] = 1000,
        set_options: SetOption = None,
        compare: Annotated[str | None, typer.Option(
            "--compare", help="A second preset to compare with (with --compare-set: the same "
                              "preset by default).")] = None,
        compare_set: Annotated[list[str] | None, typer.Option(
            "--compare-set", help="Options of the second configuration: option=value.")]
        = None,
        bot: Annotated[str, typer.Option("--bot", help="The bot in every seat.")] = "greedy",
        out: Annotated[Path, typer.Option("--out", help="Folder for the CSV files and plots.")]
        = Path("carioca-simulation"),
        plots: Annotated[bool, typer.Option("--plots/--no-plots", help="Draw PNG and SVG "
                                                                       "plots.")] = True,
        seed: SeedOption = 0,
        workers: WorkersOption = None,
        ray: RayOption = None,
        show_progress: ProgressOption = True,
    ) -> None:
        """What players argue about, measured over many games.

        Turns per round, the chance of being down by turn t, the penalty per round, the
        first-seat advantage and how often the mazo runs out; with --compare, side by side."""
        if out.exists() and not out.is_dir():
            raise _fail(f"{out} is a file: --out names a folder for the CSV files and plots")
        if plots:
            _needs("matplotlib", "the plots need matplotlib: pip install 'carioca[lab]', or "
                                 "--no-plots")
        if ray:
            _needs("ray", "--ray needs Ray: pip install 'carioca[lab]'")
        try:
            configs = [Config.of(preset, parse_options(set_options))]
            if compare is not None or compare_set:
                second = parse_options(compare_set, "--compare-set")
                configs.append(Config.of(compare or preset, second))
                if _same_rules(configs[0], configs[1]):
                    raise ValueError(f"--compare gives the same rules as the first "
                                     f"configuration ({configs[0].label}): nothing to compare")
            check_simulation(configs, players, bot)  # a refused run makes no folder
        except (RulesError, ValueError) as exc:
            raise _fail(str(exc)) from None
        # Only once the rules are good: a refused command leaves no empty folder behind.
        _check_writable_folder(out)
        try:
            check_simulation_folder(out)
        except OSError as exc:
            raise _fail(f"cannot write to {exc.filename or out}: {exc.strerror or exc}") from None
        try:
            with _bar(games * len(configs), "simulate", show_progress) as advance:
                result = simulate(configs, players=players, games=games, bot=bot, seed=seed,
                                  workers=workers, ray_address=ray, progress=advance)
        except (RulesError, ValueError) as exc:
            raise _fail(str(exc)) from None
        console = Console(markup=False)
        console.print(simulation_table(result))
        try:
            paths = write_simulation(result, out, plots=plots)
        except OSError as exc:  # nothing of this run was put in place: the folder is as it was
            raise _fail(f"cannot write to {exc.filename or out}: {exc.strerror or exc}") from None
        console.print(f"Wrote {len(paths)} files to {out}/: "
                      + ", ".join(p.name for p in paths), highlight=False)
