"""The user docs stay true to the code."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_presets_doc_is_generated_from_the_presets() -> None:
    spec = importlib.util.spec_from_file_location("gen", ROOT / "scripts" / "gen_presets_doc.py")
    assert spec and spec.loader
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    current = (ROOT / "docs" / "presets.md").read_text(encoding="utf-8")
    assert current == gen.render(), "run scripts/gen_presets_doc.py to refresh docs/presets.md"


def test_every_ruling_has_a_test() -> None:
    """docs/rulings.md numbers its rulings; tests/test_rulings.py names a test after each."""
    rulings = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    numbers = [line.split(".")[0] for line in rulings.splitlines() if line[:1].isdigit()]
    tests = (ROOT / "tests" / "test_rulings.py").read_text(encoding="utf-8")
    missing = [n for n in numbers if f"test_ruling_{n}_" not in tests]
    assert not missing, f"rulings without a test: {missing}"


def test_every_link_in_the_docs_leads_to_a_file() -> None:
    """The README's and docs/'s relative links and images (screenshots, other docs) exist."""
    import re

    broken = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if "://" in target or target.startswith("#"):
                continue
            if not (doc.parent / target.split("#")[0]).exists():
                broken.append(f"{doc.name}: {target}")
    assert not broken, broken


def test_the_questions_commands_still_run(tmp_path: Path) -> None:
    """docs/questions.md quotes the `carioca simulate` commands its figures come from: each
    still runs (two games instead of a thousand, the eager bot, so that it is quick)."""
    import shlex

    from typer.testing import CliRunner

    from carioca.cli import app

    text = (ROOT / "docs" / "questions.md").read_text("utf-8")
    commands = [line for line in text.splitlines() if line.startswith("carioca simulate ")]
    assert len(commands) == 5
    for i, line in enumerate(commands):
        args = shlex.split(line)[1:]
        args[args.index("--games") + 1] = "2"
        args += ["--bot", "eager", "--workers", "1", "--no-plots", "--no-progress",
                 "--out", str(tmp_path / str(i))]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, (line, result.output)
        assert (tmp_path / str(i) / "summary.csv").is_file()
