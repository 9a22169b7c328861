# Sourced by the host commands: make sure the pinned local venv exists and is current.
# Re-installs only when requirements.txt changed since the last install.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV="$ROOT/.venv"
STAMP="$VENV/.requirements.sha256"
want=$(sha256sum "$ROOT/requirements.txt" | cut -d' ' -f1)
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$want" ]; then
  echo "setting up $VENV (pinned packages from requirements.txt)..." >&2
  python3 -m venv "$VENV" || exit 1
  "$VENV/bin/pip" install -q --disable-pip-version-check -r "$ROOT/requirements.txt" >&2 || exit 1
  echo "$want" > "$STAMP"
fi
export PATH="$VENV/bin:$PATH"
export PYRIGHT_PYTHON_GLOBAL_NODE=1
