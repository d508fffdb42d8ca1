# The party website. `just serve` builds and serves everything; `just test` runs every test.

set dotenv-load := true

export DIST_DIR := env_var_or_default("DIST_DIR", "dist")
target := env_var_or_default("CARGO_TARGET_DIR", "target")

# List the recipes.
default:
    @just --list

# Install the locked front-end packages when they are missing or out of date (see .ci/run
# for why this is `install --no-save` rather than `ci`).
deps:
    @if [ ! -d site/node_modules ] || [ site/package-lock.json -nt site/node_modules/.package-lock.json ]; then npm --prefix site install --no-save --no-audit --no-fund; fi

# Build the client bundles (when their sources changed) and generate the whole static site into dist/.
build: deps
    node site/scripts/build-if-changed.mjs
    cargo run --quiet -p generator -- build

# Build, then serve dist/ and /api on BIND:PORT (default 127.0.0.1:8080) with data/site.db. The
# generator and the server are built together in release, so what they share compiles once.
serve: deps
    node site/scripts/build-if-changed.mjs
    cargo build --quiet --release -p generator -p api
    {{target}}/release/generator build
    {{target}}/release/api

# Build, serve on BIND:PORT and rebuild + reload the open page whenever a source file changes.
dev: deps
    node site/scripts/dev.mjs

# Every test: Rust unit and route tests, TypeScript unit tests, then end-to-end tests in Chromium.
test: deps
    cargo test --workspace --quiet
    npm --prefix site run test:unit --silent
    npm --prefix site run typecheck --silent
    just build
    cargo build --quiet -p api -p fake-stripe --bins --example smtp-sink
    npm --prefix site run test:e2e --silent

# Benchmarks: page weight, static files against nginx, durable signups against a plain loop, the blog's build and publish speed against Hugo, memory under a mixed load, hostile clients, then a fresh clone's first `just serve`.
bench: build
    cargo build --quiet --release -p api -p generator --bins --example plain_writes --example photo
    node bench/run.mjs
    node bench/blog.mjs
    node bench/memory.mjs
    node bench/hostile.mjs
    node bench/first-run.mjs

# A consistent copy of DATA_DIR/site.db (default backups/site-YYYYMMDD-HHMMSS.db), safe while the server runs.
backup file=("backups/site-" + `date -u +%Y%m%d-%H%M%S` + ".db"):
    cargo run --quiet --release -p api -- backup {{file}}

# Lighthouse on every public page (mobile), the admin app's script weight, then the API against its OpenAPI contract (schemathesis): fails on a broken budget or contract.
audit: build
    @if [ ! -d bench/node_modules ] || [ bench/package-lock.json -nt bench/node_modules/.package-lock.json ]; then npm --prefix bench install --no-save --no-audit --no-fund; fi
    cargo build --quiet -p api
    node bench/audit.mjs
    node bench/admin-weight.mjs
    bench/contract.sh

# Format all code: Rust with rustfmt, the site's TypeScript, scripts and styles with Prettier.
fmt: deps
    cargo fmt --all
    npm --prefix site run format --silent

# Lint and type-check all code: rustfmt and clippy; for the site tsc, ESLint and Prettier.
lint: deps
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets --quiet -- -D warnings
    npm --prefix site run typecheck --silent
    npm --prefix site run lint --silent
