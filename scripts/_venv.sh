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

# Compile credal_core's numba kernels once per change of their sources (scripts/warm_kernels.py); the
# stamp sits beside numba's cache, in this checkout's credal_core/__pycache__.
warm_kernels() {
    local stamp="credal_core/__pycache__/.warmed-kernels"
    local digest
    digest="$( { .venv/bin/python -VV; ls -d .venv/lib/python3*/site-packages/numba-*.dist-info 2>/dev/null;
                 grep -rl --include='*.py' compiled_kernel credal_core | sort | xargs cat; } \
               | sha256sum | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ]; then
        return 0
    fi
    # The LNCC's kernels and all others in two processes at once (two cores: ~12 s instead of ~20 s).
    .venv/bin/python scripts/warm_kernels.py lncc &
    local lncc=$!
    .venv/bin/python scripts/warm_kernels.py others || { wait "$lncc" || true; return 1; }
    wait "$lncc" || return 1
    mkdir -p credal_core/__pycache__
    echo "$digest" > "$stamp"
}
