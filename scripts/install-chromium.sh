#!/bin/sh
# Installs Debian's Chromium for the browser tests (the server's pages, the renderer) where
# it is missing. It never fails the command it is part of: where Chromium cannot be
# installed (no apt-get, no root or sudo, no package mirror), it says so, and the browser
# tests are skipped with that reason. FEEDSIFT_CHROMIUM names another browser binary.
command -v chromium >/dev/null 2>&1 && exit 0
[ -n "${FEEDSIFT_CHROMIUM:-}" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-chromium: no apt-get here; install Chromium yourself (or set FEEDSIFT_CHROMIUM), else the browser tests are skipped"
    exit 0
fi
if [ "$(id -u)" = 0 ]; then
    SUDO=
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
else
    echo "install-chromium: run 'sudo apt-get install chromium' once, else the browser tests are skipped"
    exit 0
fi
echo "install-chromium: apt-get install chromium (Debian's package; about a minute)"
timeout 300 $SUDO apt-get update -qq >/dev/null 2>&1
if ! DEBIAN_FRONTEND=noninteractive timeout 600 $SUDO apt-get install -y -qq chromium >/dev/null 2>&1; then
    echo "install-chromium: apt-get could not install chromium; the browser tests are skipped"
fi
exit 0
