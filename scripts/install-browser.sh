#!/usr/bin/env bash
# Install what the browser tests (tests/test_browser.py) need: Debian's chromium and the
# Playwright Python package. Idempotent; never runs `playwright install` (the tests drive
# /usr/bin/chromium through executable_path instead of a downloaded browser).
set -euo pipefail

# Debian packages still missing: chromium (browser tests), libcairo2 (cairosvg: --png and
# --pdf) and poppler-utils (the --pdf tests turn the booklet into images with pdftoppm)
NEED=""
[ -x /usr/bin/chromium ] || NEED="$NEED chromium fonts-dejavu-core"
command -v pdftoppm >/dev/null || NEED="$NEED poppler-utils"
ldconfig -p 2>/dev/null | grep 'libcairo\.so\.2' >/dev/null || NEED="$NEED libcairo2"  # no -q: a SIGPIPE would fail the pipe
if [ -n "$NEED" ]; then
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update
    # shellcheck disable=SC2086
    $SUDO apt-get install -y --no-install-recommends $NEED
fi

PY="${PYTHON:-python3}"
if ! "$PY" -c "import playwright" 2>/dev/null; then
    "$PY" -m pip install --quiet playwright
fi
echo "browser: $(/usr/bin/chromium --version 2>/dev/null || echo missing)"
echo "pdftoppm: $(command -v pdftoppm >/dev/null && { pdftoppm -v 2>&1 || true; } | head -1 || echo missing)"
echo "playwright: $("$PY" -c 'from importlib.metadata import version; print(version("playwright"))')"
