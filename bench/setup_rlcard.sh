#!/usr/bin/env bash
# Create the throwaway virtualenv that holds RLCard for the comparison benchmark.
#
# RLCard is not a dependency of carioca: it lives only in bench/.venv-rlcard (git-ignored),
# so that its pins (numpy, termcolor) never reach the project's environment.
# Usage: bash bench/setup_rlcard.sh [python]   (default: python3; idempotent)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv-rlcard"
python="${1:-python3}"

if [[ ! -x "$venv/bin/python" ]]; then
    "$python" -m venv "$venv"
fi
# Only RLCard's core (no torch extras): the random agents need nothing else.
"$venv/bin/python" -m pip install --quiet --upgrade rlcard numpy
"$venv/bin/python" -c "import rlcard; rlcard.make('gin-rummy'); print('rlcard', rlcard.__version__, 'ok')"
