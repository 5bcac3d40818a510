# Sourced by app.sh, serve.sh and test.sh: create .venv if needed and install a requirements file into
# it — skipped when the same requirement files were installed by this Python before (a stamp in .venv
# records their hash): `pip install` with everything satisfied still costs seconds at every start.
# Delete .venv/.installed-* (or .venv) to force a reinstall.
ensure_venv() {
    local requirements="$1"
    if [ ! -x .venv/bin/python ]; then
        python3 -m venv .venv
    fi
    local stamp=".venv/.installed-${requirements%.txt}"
    local digest
    digest="$( { .venv/bin/python -VV; cat requirements*.txt; } | sha256sum | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ]; then
        return 0
    fi
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$requirements"
    echo "$digest" > "$stamp"
}
