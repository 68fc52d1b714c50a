#!/usr/bin/env bash
# Install what the browser tests (tests/test_browser.py) need: Debian's chromium and the
# Playwright Python package. Idempotent; never runs `playwright install` (the tests drive
# /usr/bin/chromium through executable_path instead of a downloaded browser).
set -euo pipefail

if [ ! -x /usr/bin/chromium ]; then
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update
    $SUDO apt-get install -y --no-install-recommends chromium fonts-dejavu-core
fi

PY="${PYTHON:-python3}"
if ! "$PY" -c "import playwright" 2>/dev/null; then
    "$PY" -m pip install --quiet playwright
fi
echo "browser: $(/usr/bin/chromium --version 2>/dev/null || echo missing)"
echo "playwright: $("$PY" -c 'from importlib.metadata import version; print(version("playwright"))')"
