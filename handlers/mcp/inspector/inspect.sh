#!/usr/bin/env bash
# The MCP Inspector's command line against a running fiplan: start the
# binary on a free port with a fresh database, make an API key through the
# API, then list the tools and call fi_calculate over /mcp with that key.
# The transcript goes to stdout; any failure exits non-zero.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
work="$(mktemp -d)"
trap 'kill "${pid:-}" 2>/dev/null || true; wait "${pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

(cd "$here" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
CGO_ENABLED=0 go build -o "$work/fiplan" "$root/cmd/fiplan"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
FI_DB="$work/fiplan.db" FI_ADDR="127.0.0.1:$port" FI_PUBLIC_URL="$base" FI_LOG_LEVEL=warn "$work/fiplan" 2>"$work/server.log" &
pid=$!
for _ in $(seq 1 100); do
  curl -sf "$base/api/v1/status" >/dev/null && break
  sleep 0.1
done

token=$(FI_DB="$work/fiplan.db" "$work/fiplan" token -sub inspector -tier pro)
key=$(curl -sf "$base/api/v1/user/api-keys" -H "Authorization: Bearer $token" \
  -H 'Content-Type: application/json' -d '{"name":"inspector"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["key"])')

inspect() {
  (cd "$here" && npx --no-install mcp-inspector --cli "$base/mcp" --transport http \
    --header "Authorization: Bearer $key" "$@" 2>/dev/null)
}

echo "\$ mcp-inspector --cli $base/mcp --transport http --header 'Authorization: Bearer svc_...' --method tools/list"
tools=$(inspect --method tools/list)
echo "$tools" | python3 -c '
import json, sys
d = json.load(sys.stdin)
names = sorted(t["name"] for t in d["tools"])
for t in d["tools"]:
    a = t["annotations"]
    print("  %-18s readOnly=%-5s destructive=%-5s idempotent=%-5s output=%s" % (t["name"], a["readOnlyHint"], a["destructiveHint"], a["idempotentHint"], "outputSchema" in t))
want = ["add_asset","checkin_my_plan","compare_cities","delete_asset","fi_calculate","get_my_plan","get_my_profile",
        "get_my_settings","list_my_assets","list_my_events","list_my_plans","my_fi_score","optimize_plan","portfolio_health","recommend_cities","run_my_plan",
        "save_my_plan","search_cities","tax_calculate","tax_countries","tax_optimize","tax_programs","update_asset",
        "update_my_profile","update_my_settings"]
assert names == want, names
size = len(json.dumps(d, separators=(",", ":")))
print("  tools/list: %d bytes" % size)
assert size < 43500, size
'

echo "\$ mcp-inspector ... --method tools/call --tool-name fi_calculate --tool-arg currentAge=35 annualIncome=90000 annualExpenses=45000 currentSavings=50000"
call=$(inspect --method tools/call --tool-name fi_calculate --tool-arg currentAge=35 annualIncome=90000 annualExpenses=45000 currentSavings=50000)
echo "$call" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert not d.get("isError"), d
s = d["structuredContent"]
print("  " + d["content"][0]["text"])
print("  milestones: " + ", ".join("%s (age %d)" % (m["label"], m["age"]) for m in s["milestones"]))
print("  engine: %s; inputHash: %s" % (s["engine"], s["inputHash"]))
assert s["fiNumber"] == 1125000 and "projections" not in s and len(s["inputHash"]) == 32, s
'

echo "\$ mcp-inspector ... (no Authorization) --method tools/list"
if (cd "$here" && npx --no-install mcp-inspector --cli "$base/mcp" --transport http --method tools/list >"$work/noauth.out" 2>&1); then
  cat "$work/noauth.out"
  echo "tools/list without credentials succeeded"; exit 1
fi
grep -q "no bearer token" "$work/noauth.out" || { cat "$work/noauth.out"; exit 1; }
echo "  refused: $(grep -m1 "no bearer token" "$work/noauth.out")"
echo "\$ curl -si -X POST $base/mcp (no Authorization)"
status=$(curl -s -o /dev/null -D "$work/headers" -w '%{http_code}' -X POST "$base/mcp" -H 'Content-Type: application/json' -d '{}')
challenge=$(tr -d '\r' <"$work/headers" | grep -i '^www-authenticate:' || true)
echo "  $status $challenge"
[ "$status" = 401 ] && echo "$challenge" | grep -q "resource_metadata=\"$base/.well-known/oauth-protected-resource\""
echo ok
