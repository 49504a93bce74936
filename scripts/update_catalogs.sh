#!/usr/bin/env bash
# Re-extract every translatable text of Nightfall and merge it into the catalogs.
#
#   scripts/update_catalogs.sh
#
# 1. `pybabel extract` collects the English msgids (N_("...") markers in the engine and
#    rule sets, _("...") calls in status_post.py; see babel.cfg) into
#    src/nightfall/i18n/messages.pot.
# 2. `pybabel update` merges that template into every existing catalog
#    src/nightfall/i18n/locales/<locale>/LC_MESSAGES/nightfall.po: new msgids appear
#    untranslated (or "fuzzy" with a guessed translation, `--previous` shows the old
#    msgid), msgids that vanished from the source are dropped.
# Then translate the new/fuzzy entries (remove the "fuzzy" flag when done) and run
# `.venv/bin/pytest -q tests/test_i18n.py`. Catalogs are read at run time, there is no
# compile step.
#
# Adding a language (example: French, "fr"):
#   .venv/bin/pybabel init -i src/nightfall/i18n/messages.pot \
#       -d src/nightfall/i18n/locales -D nightfall -l fr
#   translate src/nightfall/i18n/locales/fr/LC_MESSAGES/nightfall.po (keep every
#   {placeholder} exactly), add "fr" to SUPPORTED_LOCALES in src/nightfall/i18n/__init__.py
#   and to the locales checked in tests/test_i18n.py. From then on this script updates
#   it together with the others.
set -euo pipefail

cd "$(dirname "$0")/.."
PYBABEL="${PYBABEL:-.venv/bin/pybabel}"
POT=src/nightfall/i18n/messages.pot
LOCALES=src/nightfall/i18n/locales
DOMAIN=nightfall

"$PYBABEL" --quiet extract -F babel.cfg -k N_ -k _ \
    --add-location=file \
    --project=Nightfall --version="$(sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)" \
    --copyright-holder="Nightfall contributors" \
    -o "$POT" src/nightfall

for po in "$LOCALES"/*/LC_MESSAGES/"$DOMAIN".po; do
    [ -e "$po" ] || continue
    locale="$(basename "$(dirname "$(dirname "$po")")")"
    "$PYBABEL" --quiet update -i "$POT" -d "$LOCALES" -D "$DOMAIN" -l "$locale" \
        --previous --ignore-obsolete
    echo "updated $po"
done
