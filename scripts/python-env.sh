# shellcheck shell=bash
# Sourced by ./landing (local, bench), ./verify and .ci/run: a Python with moto's server (the embedded DynamoDB,
# scripts/moto-server.py), cfn-lint and the SAM translator (.ci/run, scripts/sam-transform.py). landing_python_env
# exports it as LANDING_PYTHON, which MotoServer and TransformedTemplate run.
# The machine's python3 (LANDING_PYTHON_BASE names another) is used as is when it has them all and cfn-lint is on PATH.
# Otherwise the pinned scripts/requirements.txt is installed into the checkout's .venv/ (python3 -m venv, then pip):
# once, and again only when that file changes (.venv/requirements.sha256 holds the hash of the one installed). Then
# .venv/bin goes first on PATH, so `python3` and `cfn-lint` are the environment's for the scripts and the tests.
# On failure landing_python_env says what to do in one line on stderr and returns 1; the caller decides if that is fatal.

# "ok EXECUTABLE" when interpreter $1 finds every module the scripts import, else the missing ones. By top-level name
# and find_spec, which imports nothing: 40 ms, where importing moto's server takes two seconds.
landing_python_check() {
  "$1" - <<'EOF'
import importlib.util
import sys
wanted = ("moto", "flask", "flask_cors", "werkzeug", "boto3", "cfnlint", "samtranslator")
missing = [name for name in wanted if importlib.util.find_spec(name) is None]
print(" ".join(missing) if missing else "ok " + sys.executable)
EOF
}

# Makes or updates $venv from interpreter $base so that it has $req (whose SHA-256 is $want) installed.
landing_python_venv() {
  local base=$1 req=$2 venv=$3 want=$4 why=$5 py="$3/bin/python" checked
  # up to date, perhaps by another run while this one waited for the lock
  if [ "$(cat "$venv/requirements.sha256" 2>/dev/null)" = "$want" ] && [ -x "$venv/bin/cfn-lint" ] \
      && checked=$(landing_python_check "$py" 2>/dev/null) && [ "${checked%% *}" = ok ]; then
    return 0
  fi
  if ! "$py" -m pip --version >/dev/null 2>&1; then
    # absent, or unusable (made without pip, or its Python since removed): make it afresh
    if ! "$base" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
      echo "landing: moto and cfn-lint need Python 3.10 or newer and $base is $("$base" -V 2>&1); install one and" \
           "set LANDING_PYTHON_BASE to it" >&2
      return 1
    fi
    if ! rm -rf "$venv" || ! mkdir -p "$venv"; then
      echo "landing: cannot make $venv; check its directory's permissions" >&2
      return 1
    fi
    if ! "$base" -m venv "$venv" >"$venv/venv.log" 2>&1 || ! "$py" -m pip --version >/dev/null 2>&1; then
      echo "landing: '$base -m venv .venv' failed (on Debian or Ubuntu: apt-get install python3-venv); details in" \
           ".venv/venv.log" >&2
      return 1
    fi
  fi
  echo "landing: $why; installing scripts/requirements.txt (moto[server], cfn-lint, aws-sam-translator, pinned) into" \
       ".venv (once; a minute or two) ..." >&2
  rm -f "$venv/requirements.sha256"
  if ! "$py" -m pip install --disable-pip-version-check -r "$req" >"$venv/pip.log" 2>&1; then
    if grep -qE 'NewConnectionError|ConnectTimeout|Name or service not known|Network is unreachable' "$venv/pip.log"; then
      why="pip could not reach PyPI (no network?)"
    else
      why="pip failed ($(grep '^ERROR:' "$venv/pip.log" | tail -n 1 | cut -c 8-200))"
    fi
    echo "landing: $why, so scripts/requirements.txt is not installed in .venv (.venv/pip.log has pip's output);" \
         "run again once PyPI is reachable, or set LANDING_PYTHON_BASE to a Python that has them" >&2
    return 1
  fi
  if ! checked=$(landing_python_check "$py" 2>/dev/null) || [ "${checked%% *}" != ok ] || [ ! -x "$venv/bin/cfn-lint" ]; then
    echo "landing: .venv still lacks ${checked:-cfn-lint} after installing scripts/requirements.txt; delete .venv and run" \
         "again (.venv/pip.log has the install)" >&2
    return 1
  fi
  echo "$want" >"$venv/requirements.sha256"
}

landing_python_env() {
  local root base req venv want checked why status=0
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  base="${LANDING_PYTHON_BASE:-python3}"
  req="$root/scripts/requirements.txt"
  venv="$root/.venv"
  if ! command -v "$base" >/dev/null 2>&1; then
    echo "landing: $base not found; install Python 3.10 or newer (or set LANDING_PYTHON_BASE to one)" >&2
    return 1
  fi
  if ! checked=$(landing_python_check "$base" 2>/dev/null); then
    echo "landing: $base does not run ($("$base" -V 2>&1 | tail -n 1)); install Python 3.10 or newer (or set" \
         "LANDING_PYTHON_BASE to one)" >&2
    return 1
  fi
  # the machine's Python, as is, when it has everything
  if [ "${checked%% *}" = ok ] && command -v cfn-lint >/dev/null 2>&1; then
    export LANDING_PYTHON="${checked#ok }"
    return 0
  fi
  if [ "${checked%% *}" = ok ]; then why="cfn-lint is not on PATH"; else why="$base has no ${checked// /, }"; fi
  if ! want=$("$base" -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' \
      "$req" 2>/dev/null); then
    echo "landing: cannot read $req; restore it (git checkout scripts/requirements.txt)" >&2
    return 1
  fi
  if [ "$(cat "$venv/requirements.sha256" 2>/dev/null)" != "$want" ] && [ -f "$venv/requirements.sha256" ]; then
    why="scripts/requirements.txt changed"
  fi
  # two first runs at once (./verify and ./landing local) must not both install: one waits for the other
  if command -v flock >/dev/null 2>&1 && exec 9>"$root/.venv.lock"; then
    flock 9
  fi
  landing_python_venv "$base" "$req" "$venv" "$want" "$why" || status=1
  exec 9>&-
  [ "$status" -eq 0 ] || return 1
  export LANDING_PYTHON="$venv/bin/python"
  case ":$PATH:" in *":$venv/bin:"*) ;; *) export PATH="$venv/bin:$PATH" ;; esac
}
