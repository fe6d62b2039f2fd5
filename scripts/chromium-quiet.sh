#!/bin/bash
# Debian's Chromium without the omnibox popup's WebUI, which headless Chromium 156 starts in a renderer of its own for
# every new window (each bench load's fresh context): ~0.5 s of CPU during the page's load. Chromium reads only the last
# --disable-features, so Playwright's own list is merged into one with these features.
EXTRA="WebUIOmniboxFullPopup,WebUIOmniboxAimPopup,WebUIOmniboxPopup,PreloadTopChromeWebUI"
args=()
disabled=""
for arg in "$@"; do
  case "$arg" in
    --disable-features=*) disabled="${disabled:+$disabled,}${arg#--disable-features=}" ;;
    *) args+=("$arg") ;;
  esac
done
exec /usr/bin/chromium "${args[@]}" "--disable-features=${disabled:+$disabled,}$EXTRA"
