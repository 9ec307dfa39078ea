# Ask First — the README's commands. Every target installs what it needs (idempotently) first.
#   make run    build and open the app with the offline demo agent
#   make test   every test: Rust (all crates), UI unit tests and checks, bindings drift,
#               end-to-end tests of the real window under Xvfb with a private D-Bus session,
#               and the survival suite (tests/e2e/survival.sh; alone: make survival)
#   make lint   rustfmt, clippy (-D warnings), svelte-check
#   make bindings  regenerate ui/src/lib/bindings from askfirst-protocol
#   make bench  the benchmarks (figures in BENCHMARKS.md)
#   make package       the Debian package (Tauri's bundler); prints where the .deb is
#   make package-test  builds the package, installs it, runs end-to-end tests against the
#                      installed /usr/bin/askfirst, and removes it again (CI runs it after make test)

SHELL := /bin/bash
.DEFAULT_GOAL := run
.PHONY: run test setup setup-system setup-test-system ui build test-rust test-rust-only test-rust-and-ui test-unprivileged test-ui e2e survival survival-only lint bindings bench clean package package-test

# Debian 12 packages: to build and run the app (bubblewrap confines the commands the agent runs;
# fonts-wqy-microhei shows the Simplified Chinese window as characters, not boxes)…
APT_BUILD := build-essential pkg-config curl file libwebkit2gtk-4.1-dev \
	libayatana-appindicator3-dev librsvg2-dev libsoup-3.0-dev libxdo-dev bubblewrap \
	fonts-wqy-microhei
# …and, for the end-to-end tests, an X server, D-Bus, WebKit's WebDriver, a tray host
# (StatusNotifierWatcher) and Python's D-Bus bindings for the fake notification server; for the
# core's tests, fusepy for the case-insensitive test file system (tests/fs) and a real keyring
# (GNOME Keyring's Secret Service, and secret-tool to read it back) for the API-key tests.
APT_TEST := xvfb xauth dbus dbus-x11 libglib2.0-bin webkit2gtk-driver python3 python3-dbus \
	python3-gi python3-xlib haskell-status-notifier-item-utils procps python3-fusepy \
	gnome-keyring libsecret-tools fonts-wqy-microhei

SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
# Installs the Debian packages in $(1) that are not installed yet (apt-get only when needed).
define apt_install
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages: $$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

setup-system:
	$(call apt_install,$(APT_BUILD))

setup-test-system:
	$(call apt_install,$(APT_BUILD) $(APT_TEST))

# npm ci only when the lock file changed since the last install.
ui/node_modules/.package-lock.json: ui/package-lock.json
	cd ui && npm ci --no-audit --no-fund
	@touch $@

setup: setup-system ui/node_modules/.package-lock.json

ui: ui/node_modules/.package-lock.json
	cd ui && npm run build

build: setup ui
	cargo build --locked

run: build
	./target/debug/askfirst

# The MCP servers the core's tests start (installed from npm).
tests/mcp/node_modules/.package-lock.json: tests/mcp/package-lock.json
	cd tests/mcp && npm ci --no-audit --no-fund
	@touch $@

# axe-core, the accessibility engine the end-to-end tests inject into the window (from npm).
tests/e2e/node_modules/.package-lock.json: tests/e2e/package-lock.json
	cd tests/e2e && npm ci --no-audit --no-fund
	@touch $@

# The real Claude Code CLI the inbox's end-to-end tests drive (tests/agents; from npm, its Linux
# binary in the optional package @anthropic-ai/claude-code-linux-x64), and Gemini CLI (Node).
tests/agents/node_modules/.package-lock.json: tests/agents/package-lock.json
	cd tests/agents && npm ci --no-audit --no-fund
	@touch $@

test: setup-test-system ui/node_modules/.package-lock.json ui tests/mcp/node_modules/.package-lock.json \
	test-rust-and-ui e2e

# The UI's check and unit tests need no Rust: they run beside the Rust build and tests (their
# lines marked "[ui]"), where one core is often idle while a single crate compiles or links.
test-rust-and-ui:
	@set -uo pipefail; \
	( $(MAKE) --no-print-directory test-ui 2>&1 | sed -u 's/^/[ui] /'; exit "$${PIPESTATUS[0]}" ) & ui=$$!; \
	$(MAKE) --no-print-directory test-rust-only; rust=$$?; \
	wait $$ui; ui=$$?; \
	if [ $$rust != 0 ] || [ $$ui != 0 ]; then \
		echo "make test: failed: the Rust tests (exit $$rust), the UI's tests (exit $$ui)"; exit 1; fi

# Tests at a time in each Rust test binary: most of them wait (for a child process, a socket,
# a timeout) rather than compute, so more than the machine's cores (cargo's default) finish
# sooner — the core's 444 took 46 s with 2 at a time and 26 s with 8 on a 2-core machine.
TEST_THREADS ?= 8
# The MCP servers are installed first, so their tests must run: a plain `cargo test` skips them
# (with a message) where Node or tests/mcp/node_modules is missing; here that is a failure. The
# same for the keyring test (gnome-keyring and secret-tool come with setup-test-system).
test-rust: ui tests/mcp/node_modules/.package-lock.json
	$(MAKE) --no-print-directory test-rust-only

test-rust-only:
	ASKFIRST_REQUIRE_MCP_TESTS=1 ASKFIRST_REQUIRE_KEYRING_TESTS=1 ASKFIRST_REQUIRE_SANDBOX_TESTS=1 \
		RUST_TEST_THREADS=$(TEST_THREADS) cargo test --locked --workspace
	$(MAKE) --no-print-directory test-unprivileged

# CI runs everything as root, which no permission stops; a person runs Ask First as a normal
# user. So, when run as root, the core's sandbox, try-first and change-set tests run again as
# the system user askfirst-test (made here once, with a home folder). Cargo stays root (the
# target folder is root's); only the test binary runs as that user (from a copy in a temporary
# folder when it cannot reach the one cargo built). Not root: nothing to do (the tests above already ran unprivileged).
# The binary is asked of the whole workspace, as `cargo test --workspace` built it: asked of the
# core alone, cargo unifies features differently and compiles the core again (87 s of CI).
UNPRIVILEGED_USER := askfirst-test
UNPRIVILEGED_TESTS := all::sandbox:: all::try_first:: all::changes::
test-unprivileged:
	@if [ "$$(id -u)" != 0 ]; then echo "test-unprivileged: not root, the tests above ran unprivileged"; exit 0; fi; \
	set -euo pipefail; \
	id -u $(UNPRIVILEGED_USER) >/dev/null 2>&1 || \
		useradd --system --create-home --home-dir /home/$(UNPRIVILEGED_USER) --shell /usr/sbin/nologin $(UNPRIVILEGED_USER); \
	bin=$$(cargo test --locked --workspace --no-run --message-format=json \
		| python3 -c 'import json, sys; print([m["executable"] for m in map(json.loads, sys.stdin) if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "all" and "/src-tauri/core#" in m["package_id"]][-1])'); \
	if ! runuser -u $(UNPRIVILEGED_USER) -- test -r "$$bin" -a -x "$$bin"; then \
		dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; chmod 755 "$$dir"; \
		install -m 755 "$$bin" "$$dir/all"; bin=$$dir/all; \
	fi; \
	cd /home/$(UNPRIVILEGED_USER) && runuser -u $(UNPRIVILEGED_USER) -- env -i PATH=/usr/local/bin:/usr/bin:/bin \
		HOME=/home/$(UNPRIVILEGED_USER) ASKFIRST_REQUIRE_SANDBOX_TESTS=1 \
		"$$bin" --test-threads=2 $(UNPRIVILEGED_TESTS)

test-ui: ui/node_modules/.package-lock.json
	cd ui && npm run check && npm test

e2e: ui tests/mcp/node_modules/.package-lock.json tests/e2e/node_modules/.package-lock.json tests/agents/node_modules/.package-lock.json
	cargo build --locked -p askfirst -p askfirst-hook
	tests/e2e/lanes.sh

# The survival suite alone (kill -9, full and read-only data folder, no D-Bus, hostile input):
# it starts its own D-Bus sessions (and one run without any), so only the X server is shared.
survival: ui tests/mcp/node_modules/.package-lock.json tests/e2e/node_modules/.package-lock.json
	cargo build --locked
	$(MAKE) --no-print-directory survival-only

survival-only:
	xvfb-run -a -s "-screen 0 1280x860x24" tests/e2e/survival.sh

lint: setup ui
	cargo fmt --all --check
	cargo clippy --locked --workspace --all-targets -- -D warnings
	cd ui && npm run check

# The app part takes about 15 minutes (up to 25 since cards under a still pointer arm after
# 1.2 s), most of it the soak (BENCH_SOAK approvals answered one by one, each waiting out the
# card's arming delay). Shorter: make bench BENCH_SOAK=200, or only some parts:
# make bench BENCH_PARTS=start,thousand (start, floor, soak, thousand, window1000, long, big, stream; also,
# not run by default: sessions, rounds of approvals with a new session between them; mapped, exec to
# the window's first text beside the minimal app; fonts, the fontconfig lookups and CPU of a start;
# soak_direct, the soak answered without WebDriver, with XTEST's pointer and keyboard).
BENCH_SOAK ?= 1000
BENCH_PARTS ?= start,floor,soak,thousand,window1000,long,big,stream
bench: setup-test-system ui
	cargo bench --locked -p askfirst-core --bench approvals -- --warm-up-time 1 --measurement-time 3
	cargo bench --locked -p askfirst-core --bench sandbox -- --warm-up-time 1 --measurement-time 3
	cargo bench --locked -p askfirst-core --bench providers -- --warm-up-time 1 --measurement-time 3
	cargo bench --locked -p askfirst-core --bench sessions -- --warm-up-time 1 --measurement-time 3
	cargo bench --locked -p askfirst-core --bench undo -- --warm-up-time 1 --measurement-time 3
	cargo bench --locked -p askfirst-core --bench policy -- --warm-up-time 1 --measurement-time 3
	cargo bench --locked -p askfirst-core --bench changes -- --warm-up-time 1 --measurement-time 3
	cargo bench --locked -p askfirst-core --bench resume
	cargo bench --locked -p askfirst-shell-line --bench hostile -- --warm-up-time 1 --measurement-time 3
	node --expose-gc tests/bench/node_registry.mjs
	# What the window's transcript keeps per approval in the JavaScript heap (V8, production build).
	cd ui && ASKFIRST_HEAP_BENCH=1 NODE_ENV=production NODE_OPTIONS=--expose-gc npx vitest run src/lib/transcript-heap.test.ts
	cargo build --locked --release
	# The floor: a minimal Tauri 2 app (not a workspace member), measured beside the app.
	cargo build --locked --release --manifest-path tests/bench/minimal/Cargo.toml --target-dir $(TARGET_DIR)
	ASKFIRST_BENCH_SOAK=$(BENCH_SOAK) ASKFIRST_BENCH_PARTS=$(BENCH_PARTS) \
	ASKFIRST_BENCH_FLOOR=$(TARGET_DIR)/release/askfirst-floor \
	ASKFIRST_E2E_APP=$(TARGET_DIR)/release/askfirst xvfb-run -a -s "-screen 0 1280x860x24" dbus-run-session -- tests/bench/run.sh
	# The GUI thread's longest stall (BENCHMARKS.md, "The GUI thread"; about 10 minutes).
	ASKFIRST_E2E_APP=$(TARGET_DIR)/release/askfirst xvfb-run -a -s "-screen 0 1280x860x24" dbus-run-session -- tests/bench/gui_stall.sh

# The Debian package, built by Tauri's bundler (`bundle` in tauri.conf.json) with the Tauri CLI
# from npm (ui/package.json) from the release profile (Cargo.toml). The UI is built first here
# (tauri.conf.json has no beforeBuildCommand) and embedded in the binary.
TAURI := ui/node_modules/.bin/tauri
TARGET_DIR := $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)
# The profile the package is built from: `release` for make package; make package-test builds
# it from `debug` (no optimisation, no LTO, over the debug build make test made): it checks the
# packaging and the installed app's behaviour, not its speed, and takes under a minute instead
# of a cold thin-LTO release build's 13.
PACKAGE_PROFILE ?= release
PACKAGE_CARGO_FLAGS := $(if $(filter debug,$(PACKAGE_PROFILE)),,--release)
PACKAGE_TAURI_FLAGS := $(if $(filter debug,$(PACKAGE_PROFILE)),--debug,)
DEB_DIR := $(TARGET_DIR)/$(PACKAGE_PROFILE)/bundle/deb
# The bundler names the file after productName ("Ask First_0.1.0_amd64.deb") and the package
# after it too (ask-first); the file is renamed as Debian names packages, without the space.
# The package holds askfirst-hook beside askfirst (/usr/bin), so Settings → "Other agents" can
# connect an agent in an installed Ask First; the hook is built first and added through the
# bundler's `deb.files` (given here, since its place depends on CARGO_TARGET_DIR).
package: setup ui
	rm -f $(DEB_DIR)/*.deb
	# With the app, as every other build does: built alone, the hook unifies its dependencies'
	# features differently (serde, libc, url…) and recompiles them (85 s of a cold CI run).
	cargo build --locked $(PACKAGE_CARGO_FLAGS) -p askfirst -p askfirst-hook
	# The menu entry, with its Comment in each language of the window (packaging/desktop_entry.py).
	python3 packaging/desktop_entry.py $(TARGET_DIR)/askfirst.desktop.hbs
	$(TAURI) build --ci $(PACKAGE_TAURI_FLAGS) --bundles deb \
		--config '{"bundle":{"linux":{"deb":{"files":{"/usr/bin/askfirst-hook":"$(TARGET_DIR)/$(PACKAGE_PROFILE)/askfirst-hook"},"desktopTemplate":"$(TARGET_DIR)/askfirst.desktop.hbs"}}}}' \
		-- --locked
	cd $(DEB_DIR) && for f in *' '*.deb; do mv -- "$$f" "$$(dpkg-deb --showformat='$${Package}_$${Version}_$${Architecture}' --show "$$f").deb"; done
	@echo "The package: $$(ls $(DEB_DIR)/*.deb)"

# Checks the package's contents, installs it as root, runs these end-to-end tests against the
# installed /usr/bin/askfirst, then removes it, also when a test fails (tests/package/run.sh).
# They cover a card approved and denied, a grant, the tray (its icon, menu and Quit) and a
# command shut in by bubblewrap (a dependency of the package).
PACKAGE_E2E := test_approve_writes_the_file test_deny_leaves_no_file_and_the_run_finishes \
	test_allow_for_this_session_covers_exactly_the_same_call \
	test_tray_lists_the_approval_opens_its_card_and_quit_records_shutdown \
	test_stop_ends_everything_a_command_started_setsid_included
comma := ,
package-test: setup-test-system tests/e2e/node_modules/.package-lock.json
	$(MAKE) --no-print-directory package PACKAGE_PROFILE=debug
	SUDO=$(SUDO) ASKFIRST_PACKAGE_E2E='$(subst $(eval) ,$(comma),$(strip $(PACKAGE_E2E)))' \
	tests/package/run.sh "$$(ls $(TARGET_DIR)/debug/bundle/deb/*.deb)"

bindings:
	UPDATE_BINDINGS=1 cargo test -p askfirst-protocol --test bindings

clean:
	cargo clean
	rm -rf ui/dist ui/node_modules tests/mcp/node_modules tests/e2e/node_modules tests/agents/node_modules .e2e-artifacts
