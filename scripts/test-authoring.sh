#!/usr/bin/env bash
# CI stage: the authoring stack (issue 38). Installs the Strapi project (cms/strapi) from the npm
# cache, builds its admin panel (cached), starts it on a throwaway SQLite file, seeds it from cms/content/,
# runs the content contract (tests/integration/content-service.test.ts) and the webhook and
# author's-day tests (tests/authoring) against it, stops it, and writes .tmp/authoring/ for
# scripts/test-summary.js. Needs the app's build (npm run build) and, for PostgreSQL,
# TEST_DATABASE_URL as the rest of CI.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/.tmp/authoring
# The background install and build (.ci/run) reports apart: the stage itself clears .tmp/authoring when it starts.
[ "${1:-}" = "--install-only" ] && out=$root/.tmp/authoring-install
rm -rf "$out" && mkdir -p "$out"
work=$(mktemp -d /tmp/lms-authoring.XXXXXX)
now() { date +%s.%N; }
secs() { awk "BEGIN { printf \"%.1f\", $2 - $1 }"; }
step() { echo "authoring step $1: $2 s" | tee -a "$out/steps.txt"; }
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
strapi_pid=
cleanup() {
	[ -n "$strapi_pid" ] && kill "$strapi_pid" 2>/dev/null && wait "$strapi_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

cd cms/strapi
# 1. Install from the lockfile; the npm cache persists between CI runs. Install scripts are left
# out: the one this needs, better-sqlite3's native build, is copied from the app's install when it
# is the same version for the same Node (it compiles from source here otherwise: about 2 minutes).
# `--install-only` does this and the admin build below: .ci/run starts it in the background before
# the app's own install (both mostly wait on the registry and the disk then), with APP_INSTALLED
# naming the file it touches when the app's install is done, which the copy waits for.
# A later run finds the marker of the same lockfile and goes on.
# CI's background install (.ci/run) may still be running: wait for it rather than install twice.
if [ -n "${AUTHORING_INSTALL_PID:-}" ] && [ "${1:-}" != "--install-only" ]; then
	while kill -0 "$AUTHORING_INSTALL_PID" 2>/dev/null; do sleep 1; done
fi
marker=node_modules/.installed-lock
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
t=$(now)
if [ "$(cat "$marker" 2>/dev/null)" = "$lock_hash" ]; then
	step install "0.0 (installed before: $(cat node_modules/.install-seconds 2>/dev/null || echo '?') s in the background)"
else
	npm ci --prefer-offline --no-audit --no-fund --ignore-scripts --loglevel=error >"$out/install.log" 2>&1 || { cat "$out/install.log"; echo "authoring: npm ci failed"; exit 1; }
	# Our changes to Strapi's admin (cms/strapi/patches/, decision 0093): postinstall's, which --ignore-scripts skips.
	node_modules/.bin/patch-package >>"$out/install.log" 2>&1 || { cat "$out/install.log"; echo "authoring: patch-package failed"; exit 1; }
	secs "$t" "$(now)" >node_modules/.install-seconds
	echo "$lock_hash" >"$marker"
	step install "$(cat node_modules/.install-seconds)"
fi
# 2. Build the admin panel (the editor walk, tests/authoring/editor-walk.test.ts, drives it): once per
# lockfile, admin source (src/admin), patches and admin/plugin configuration; a later run with the same hash
# reuses cms/strapi/dist/build (about 80 s and 1.5 GB otherwise, docs/authoring.md). The server's
# TypeScript is compiled by the build and again by the seed (Strapi's compileStrapi, incremental): a type
# error fails the stage. It needs no native module, so it runs before the copy below waits for the app.
admin_hash=$( (cat package-lock.json tsconfig.json config/admin.js config/plugins.js; find src/admin patches -type f 2>/dev/null | sort | xargs cat 2>/dev/null) | sha256sum | cut -d' ' -f1)
t=$(now)
if [ "$(cat dist/build/.built-hash 2>/dev/null)" = "$admin_hash" ]; then
	step "build (admin panel)" "0.0 (built before for this lockfile and admin source)"
else
	rm -rf dist/build
	NODE_ENV=production node scripts/build-admin.js >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; echo "authoring: admin build failed"; exit 1; }
	echo "$admin_hash" >dist/build/.built-hash
	step "build (admin panel)" "$(secs "$t" "$(now)")"
fi
# 3. better-sqlite3's native module, from the app's install once it is there.
native=node_modules/better-sqlite3/build/Release/better_sqlite3.node
if [ ! -f "$native" ]; then
	# A relative APP_INSTALLED is the checkout's (this runs in cms/strapi).
	case "${APP_INSTALLED:-}" in "" | /*) ;; *) APP_INSTALLED=$root/$APP_INSTALLED ;; esac
	# At most 20 minutes: an app install that never ends leaves the compile below to do.
	for _ in $(seq 1200); do [ -z "${APP_INSTALLED:-}" ] || [ -e "$APP_INSTALLED" ] && break; sleep 1; done
	want=$(node -p "require('./node_modules/better-sqlite3/package.json').version")
	have=$(node -p "try { require('../../node_modules/better-sqlite3/package.json').version } catch { '' }")
	if [ "$want" = "$have" ] && [ -f "../../$native" ]; then
		mkdir -p "$(dirname "$native")"
		cp "../../$native" "$native"
	else
		npm rebuild better-sqlite3 --loglevel=error >>"$out/install.log" 2>&1 || { cat "$out/install.log"; exit 1; }
	fi
fi

[ "${1:-}" = "--install-only" ] && exit 0

# 3. Environment of a throwaway CMS and of the tests.
app_port=$(free_port)
recorder_port=$(free_port)
strapi_port=$(free_port)
mkdir -p "$work/public/uploads"
rand() { node -p "require('crypto').randomBytes(16).toString('base64')"; }
export NODE_ENV=production STRAPI_ADMIN=true STRAPI_HOST=127.0.0.1 STRAPI_PORT=$strapi_port
export CMS_DATABASE_FILE=$work/cms.db STRAPI_PUBLIC_DIR=$work/public
export APP_KEYS="$(rand),$(rand)" ADMIN_JWT_SECRET=$(rand) API_TOKEN_SALT=$(rand) TRANSFER_TOKEN_SALT=$(rand) ENCRYPTION_KEY=$(rand)
# The tests' key, project and webhook secret (tests/support/env.ts).
export CMS_API_UUID=8a1d3c5e-7f90-4b12-a345-6789abcdef01 CMS_PROJECT_UUID=3e5a7c9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d
export CMS_WEBHOOK_SECRET=test-webhook-secret-0123456789 APP_BASE_DOMAIN=localhost CMS_TEST_CONTROLS=true
export LMS_APP_URLS=http://localhost:$app_port,http://127.0.0.1:$recorder_port
export LOOPBACK_ONLY_LOG=$out/outside.log NODE_OPTIONS="--require $PWD/scripts/loopback-only.cjs"

# 4. Seed (migrations included), then start; cold start = seed + start to the first answer.
t=$(now)
node scripts/seed.js >"$out/seed.log" 2>&1 || { tail -40 "$out/seed.log"; echo "authoring: seed failed"; exit 1; }
grep -E '^seed:' "$out/seed.log"
t_seeded=$(now)
step seed "$(secs "$t" "$t_seeded")"
node node_modules/.bin/strapi start >"$out/strapi.log" 2>&1 &
strapi_pid=$!
base=http://127.0.0.1:$strapi_port
for _ in $(seq 1 300); do
	curl -fs -o /dev/null -H "x-api-key: $CMS_API_UUID" "$base/api/v1/projects/$CMS_PROJECT_UUID/sites/acme/site?locale=en" && break
	kill -0 "$strapi_pid" 2>/dev/null || { tail -40 "$out/strapi.log"; echo "authoring: strapi did not start"; exit 1; }
	sleep 0.1
done
step start "$(secs "$t_seeded" "$(now)")"
step "cold start (seed + start)" "$(secs "$t" "$(now)")"
# Idempotence: a second seed creates nothing.
node scripts/seed.js 2>&1 | grep -E '^seed:' | tee "$out/reseed.log"
grep -q '^seed: 0 documents created' "$out/reseed.log" || { echo "authoring: the second seed created documents"; reseed_failed=1; }
unset NODE_OPTIONS

# 5. The tests, against this CMS.
cd "$root"
t=$(now)
export STRAPI_URL=$base CONTENT_SERVICE_URL=$base/api/v1 AUTHORING_APP_PORT=$app_port AUTHORING_RECORDER_PORT=$recorder_port
# The contract and the parity with the local service first, on the seeded content alone; then the
# tests that write. AUTHORING_TESTS=<files> runs those alone (no contract, no parity): one suite while
# changing it.
contract_status=0
if [ -z "${AUTHORING_TESTS:-}" ]; then
	npx vitest run --config vitest.authoring.config.ts tests/integration/content-service.test.ts tests/authoring/parity.test.ts \
		--outputFile.json="$out/contract.json" 2>&1 | tee "$out/contract.log"
	contract_status=${PIPESTATUS[0]}
fi
# shellcheck disable=SC2086 # a list of files
npx vitest run --config vitest.authoring.config.ts ${AUTHORING_TESTS:-tests/authoring} --exclude tests/authoring/parity.test.ts \
	--outputFile.json="$out/vitest.json" 2>&1 | tee "$out/vitest.log"
tests_status=${PIPESTATUS[0]}
[ "$contract_status" -eq 0 ] || tests_status=$contract_status
step tests "$(secs "$t" "$(now)")"
rss=$(awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$strapi_pid/status" 2>/dev/null)
echo "authoring: CMS RSS after the tests ${rss:-?} MB" | tee -a "$out/steps.txt"

# 6. Stop.
t=$(now)
kill "$strapi_pid" && wait "$strapi_pid" 2>/dev/null
strapi_pid=
step stop "$(secs "$t" "$(now)")"

outside=0
[ -s "$out/outside.log" ] && outside=$(wc -l <"$out/outside.log") && cat "$out/outside.log"
echo "authoring: connections outside loopback $outside" | tee -a "$out/steps.txt"
cat "$out"/latency.*.txt 2>/dev/null | tee -a "$out/steps.txt"
status=$tests_status
[ "$outside" -eq 0 ] || status=1
[ -z "${reseed_failed:-}" ] || status=1
echo "$status" >"$out/status"
exit "$status"
