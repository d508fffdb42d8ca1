#!/usr/bin/env bash
# The API against its own contract (api/openapi.json), with schemathesis: generated and
# hostile requests to every operation, signed in and not, expecting no 5xx, only documented
# status codes and answers that match their schemas. Run by `just audit`.
#
# Needs the debug api binary (`cargo build -p api`) and a built dist/. Installs schemathesis
# from PyPI when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v st >/dev/null; then
  python3 -m pip install --quiet schemathesis
  command -v pyenv >/dev/null && pyenv rehash || true
  export PATH="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$HOME/.local/bin:$PATH"
fi

binary="${CARGO_TARGET_DIR:-target}/debug/api"
work="$(mktemp -d)"
password="a long password for the contract run"
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

# Limits high enough that the run itself is not throttled (the limits have their own tests).
PORT=0 DATA_DIR="$work/data" DIST_DIR="${DIST_DIR:-dist}" ADMIN_PASSWORD="$password" \
  FORM_RATE_LIMIT=1000000 DONATION_RATE_LIMIT=1000000 SUMMARY_RATE_LIMIT=1000000 RUST_LOG=warn \
  "$binary" >"$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 100); do
  addr="$(grep -o 'Listening on http://[0-9.:]*' "$work/server.log" | head -1 | sed 's|Listening on ||' || true)"
  [ -n "$addr" ] && break
  sleep 0.1
done
[ -n "$addr" ] || { cat "$work/server.log"; echo "the api did not start"; exit 1; }

# Signed in first: the anonymous run's wrong passwords lock this address out of signing in.
token="$(node "$(dirname "$0")/lib/staff.mjs" "$addr" "$password")"

run() {
  (cd "$work" && st run "$addr/api/openapi.json" \
    --checks not_a_server_error,status_code_conformance,response_schema_conformance,content_type_conformance \
    --max-examples "${CONTRACT_EXAMPLES:-25}" --seed "${CONTRACT_SEED:-20261125}" \
    --no-color --warnings off "$@")
}
echo "Contract, signed in (logout left out: it would end the session mid-run)"
run -H "Authorization: Bearer $token" --exclude-path /api/admin/logout
echo "Contract, anonymous"
run
if grep -q ' ERROR ' "$work/server.log"; then
  echo "The server logged errors during the run:"
  grep ' ERROR ' "$work/server.log"
  exit 1
fi
