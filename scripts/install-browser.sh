#!/usr/bin/env bash
# What the browser and PDF tests need from the system: Debian's chromium (browser tests),
# libcairo2 (cairosvg: render --png/--pdf) and poppler-utils (the --pdf tests turn booklets
# into images with pdftoppm). Installing them needs root (or sudo) and apt-get. Where they
# cannot be installed this says so in one line and exits 0: the tests that need them skip,
# each group with one line saying why. Idempotent; never runs `playwright install` (the tests
# drive /usr/bin/chromium through executable_path instead of a downloaded browser).
set -uo pipefail

NEED=""
[ -x /usr/bin/chromium ] || NEED="$NEED chromium fonts-dejavu-core"
command -v pdftoppm >/dev/null || NEED="$NEED poppler-utils"
ldconfig -p 2>/dev/null | grep 'libcairo\.so\.2' >/dev/null || NEED="$NEED libcairo2"  # no -q: a SIGPIPE would fail the pipe
if [ -n "$NEED" ]; then
    SUDO=""
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
            SUDO="sudo -n"
        else
            SUDO="none"
        fi
    fi
    if [ "$SUDO" = none ] || ! command -v apt-get >/dev/null; then
        echo "install-browser: cannot install${NEED} (needs root or sudo, and apt-get);" \
             "the browser and PDF tests that need them will skip"
    else
        export DEBIAN_FRONTEND=noninteractive
        # shellcheck disable=SC2086
        if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends $NEED; }; then
            echo "install-browser: apt-get could not install${NEED};" \
                 "the browser and PDF tests that need them will skip"
        fi
    fi
fi

PY="${PYTHON:-python3}"
if ! "$PY" -c "import playwright" 2>/dev/null; then
    "$PY" -m pip install --quiet playwright || echo "install-browser: pip could not install playwright"
fi
echo "browser: $(/usr/bin/chromium --version 2>/dev/null || echo 'missing (browser tests skip)')"
echo "pdftoppm: $(command -v pdftoppm >/dev/null && { pdftoppm -v 2>&1 || true; } | head -1 || echo 'missing (PDF image tests skip)')"
echo "playwright: $("$PY" -c 'from importlib.metadata import version; print(version("playwright"))' 2>/dev/null || echo missing)"
exit 0
