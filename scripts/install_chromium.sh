#!/usr/bin/env bash
# Install Debian's Chromium for the browser tests (tests/web/test_web_browser.py), which
# drive /usr/bin/chromium with Playwright (never `playwright install`: no browser
# download). Needs root and apt-get; elsewhere it does nothing and the browser tests skip
# locally (in CI, CI=true, they fail instead of skipping).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install_chromium.sh: not root or no apt-get; the browser tests will skip" >&2
  exit 0
fi
apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
