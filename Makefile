# PhotoZoomAnimator — set-up, build, run, test, bench, install.
#   make run [ARGS="--size 1024x768 ~/Pictures"]   the viewer, release build (ARGS="--backend x11|wayland" picks the window system)
#   make test                                       every test (they start their own Xvfb)
#   make bench [BENCH=window|formats|settle|xwayland|library|import|sandbox] the benchmarks, printed as a table and key=value lines
#   make install [PREFIX=/usr/local]                the binary (Swift runtime linked in), bundled photos, man page,
#                                                   icon and .desktop launcher; make uninstall removes them
#   make demo                                       docs/demo.webp, the README's animation, from docs/demo-script.txt
#   make sanitize                                   the tests under AddressSanitizer, then ThreadSanitizer
#                                                   (make sanitize-address, make sanitize-thread: one of them)
#   make fuzz [SECONDS=60]                          each libFuzzer harness for SECONDS (scripts/fuzz), then their
#                                                   corpora through the viewer's decoders' sandbox (scripts/fuzz-sandbox)
#   make soak [PHOTOZOOM_SOAK_PHOTOS=DIR]           500 open/close cycles and 20 minutes of random input in a window,
#                                                   and a large GIF playing for 5 minutes

PREFIX ?= /usr/local
ARGS ?=
# `window`: only the figures measured in a real window (the formats' too); `formats`: only the formats';
# `library`: a tree of 100,000 small photos opened cold and with its index; `import`: 500 photos arriving in an
# open library while a finger drags it; `sandbox`: a decode in the viewer against one through the decoders' sandbox.
BENCH ?=
# Seconds each fuzzing harness runs.
SECONDS ?= 60
FUZZ_TARGETS := jpeg png webp gif apng heif tiff jxl svg raw icc exif boxes chunks script
# What building and running need; the tests also need an X server and fonts for the snapshots.
RUN_PACKAGES  := pkg-config libx11-dev libxi-dev libxext-dev libxtst-dev libxrandr-dev libcairo2-dev \
                 libx11-xcb-dev libxcb-present-dev libxcb-xfixes0-dev libxcb-shm0-dev \
                 libwayland-dev wayland-protocols libxkbcommon-dev \
                 libturbojpeg0-dev libwebp-dev libpng-dev zlib1g-dev libsqlite3-dev fonts-dejavu-core \
                 libgif-dev libimagequant-dev libavformat-dev libavcodec-dev libswscale-dev libswresample-dev libavutil-dev libpulse-dev \
                 liblcms2-dev libheif-dev libtiff-dev libjxl-dev librsvg2-dev libraw-dev libseccomp-dev
# The desktop tests also use a window manager, a Wayland compositor with Xwayland, xclip and the
# .desktop validator; each such test says so and is skipped where its package is missing. The colour
# tests use colord-data's ICC profiles; the memory test, GNU time; the clips' tests make their clips with ffmpeg.
TEST_PACKAGES := $(RUN_PACKAGES) xvfb xclip desktop-file-utils openbox weston xwayland sway grim wtype wl-clipboard wayvnc python3-gi gir1.2-gtk-3.0 x11-xserver-utils time colord-data \
                 libimage-exiftool-perl ffmpeg pulseaudio pulseaudio-utils pipewire pipewire-pulse wireplumber dbus
# The bench also makes HEIC, AVIF and JPEG XL photos with their encoders.
BENCH_PACKAGES := $(TEST_PACKAGES) libheif-examples libjxl-tools nsxiv
# What `make install` puts under PREFIX; `make uninstall` removes exactly these.
BINDIR  = $(DESTDIR)$(PREFIX)/bin
DATADIR = $(DESTDIR)$(PREFIX)/share
MANUAL  = .build-install/manual/photozoom.1
INSTALLED = $(BINDIR)/photozoom $(DATADIR)/applications/photozoom.desktop \
            $(DATADIR)/icons/hicolor/scalable/apps/photozoom.svg $(DATADIR)/man/man1/photozoom.1


.PHONY: run test bench build install uninstall demo sanitize sanitize-address sanitize-thread fuzz soak deps-run deps-test deps-bench clean

run: deps-run
	swift build -c release --product photozoom
	.build/release/photozoom $(ARGS)

# The pacing tests run alone, after the others: beside them, which refresh a frame makes is their load (the
# present pacing, and a clip's pictures every other refresh with its sound).
test: deps-test
	swift build --build-tests
	swift test --skip "PresentPacingTests|ClipWindowTests"
	swift test --skip-build --filter PresentPacingTests
	swift test --skip-build --filter "EndToEndTests.ClipWindowTests"
	swift test --skip-build --filter WaylandClipWindowTests

bench: deps-bench
	swift build -c release --product photozoom
	swift build -c release --product photozoom-bench
	# -noreset: the window figures start one viewer after another, and a server that resets when its
	# last client leaves refuses the next one for a moment.
	xvfb-run -a -s "-screen 0 3840x2160x24 -nolisten tcp -noreset" .build/release/photozoom-bench $(BENCH)

# Each sanitizer builds in a folder of its own, so the usual build stays as it is. Its tests run one at a
# time: a sanitized viewer is several times slower, and a dozen of them side by side on two cores made the
# window tests' timing (an animation's frame delays, a 0.15 s cross-fade, a flight's refreshes) the other
# tests' load rather than the viewer's. Leaks are checked in
# every viewer the tests start (the runner's own, Foundation's and XCTest's, are not). The soak is left
# to `make test` and `make soak` (and `make install`'s test, which builds a release binary of its own):
# a sanitizer's own bookkeeping (ASan holds 256 MiB of freed memory in
# quarantine) is in the RSS it compares. So are three tests whose subject is not the viewer's memory and that cost
# the sanitized run the most (80 s of its 11 minutes, which CI's 30 have to hold): a SQLite index's durability
# under SIGKILL (2500 photos indexed), and two headless scripts' determinism and coasting; `make test` runs them.
SANITIZER_SKIP := --skip SoakTests --skip InstallTests --skip 'LibraryIndexRunTests/aViewerKilledWhileIndexing' \
                  --skip 'ScriptTests/sameScriptGivesByteIdenticalFrames' --skip 'ScriptTests/flickScrollsFartherThanASlowDrag'
sanitize: sanitize-address sanitize-thread

sanitize-address: deps-test
	swift build --build-tests --sanitize=address --scratch-path .build-asan
	PHOTOZOOM_SANITIZER=address ASAN_OPTIONS=detect_leaks=0 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan-suppressions.txt:print_suppressions=0 \
	    swift test --skip-build --no-parallel --sanitize=address --scratch-path .build-asan $(SANITIZER_SKIP)

sanitize-thread: deps-test
	swift build --build-tests --sanitize=thread --scratch-path .build-tsan
	PHOTOZOOM_SANITIZER=thread swift test --skip-build --no-parallel --sanitize=thread --scratch-path .build-tsan $(SANITIZER_SKIP)

# The soak test of `make test` at full length; it prints RSS, open files and threads at the start, the
# middle and the end (Tests/EndToEndTests/SoakTests.swift); and the large GIF's, 5 minutes of it.
soak: deps-test
	swift build --build-tests
	PHOTOZOOM_SOAK_CYCLES=500 PHOTOZOOM_SOAK_MINUTES=20 PHOTOZOOM_ANIMATION_SECONDS=300 \
	    swift test --skip-build --filter "SoakTests|aLargeGIFPlaysWithFlatMemory"

fuzz: deps-test
	@# -Xswiftc repeats the sanitizers: SwiftPM's own flags reach only files compiled one at a time, not
	@# batches, and a module compiled in a batch would give libFuzzer no coverage.
	swift build --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
	    --product photozoom-fuzz --scratch-path .build-fuzz
	@for target in $(FUZZ_TARGETS); do ./scripts/fuzz $$target $(SECONDS) || exit 1; done
	@# Then what they grew, through the viewer and its decoders' sandbox: the viewer must never die.
	swift build --product photozoom
	swift build --product photozoom-fuzz
	./scripts/fuzz-sandbox

build: deps-run
	swift build -c release --product photozoom

# The Swift runtime and Foundation are linked in (`--static-swift-stdlib`), so the installed binary
# runs where no Swift toolchain is; its own build folder keeps `make run`'s build as it is. The man
# page comes from the argument parser: swift-argument-parser's generate-manual tool reads the binary just
# built (its plugin would first build every product in release, the bench and the fuzzer too).
install: deps-run
	swift build -c release --static-swift-stdlib --product photozoom --scratch-path .build-install
	swift build --product generate-manual --scratch-path .build-install
	mkdir -p .build-install/manual
	.build-install/debug/generate-manual .build-install/release/photozoom --output-directory .build-install/manual
	install -D -m 755 .build-install/release/photozoom $(BINDIR)/photozoom
	install -d $(DATADIR)/photozoom/Images
	install -m 644 Images/* $(DATADIR)/photozoom/Images/
	install -D -m 644 Desktop/photozoom.desktop $(DATADIR)/applications/photozoom.desktop
	install -D -m 644 Desktop/photozoom.svg $(DATADIR)/icons/hicolor/scalable/apps/photozoom.svg
	install -D -m 644 $(MANUAL) $(DATADIR)/man/man1/photozoom.1

uninstall:
	rm -f $(INSTALLED)
	rm -f $(addprefix $(DATADIR)/photozoom/Images/,$(notdir $(wildcard Images/*)))
	-rmdir $(DATADIR)/photozoom/Images $(DATADIR)/photozoom 2>/dev/null

# The README's animation: the demo script at a phone's size, headless (the same bytes every run).
demo: build
	.build/release/photozoom --headless --no-thumbnail-cache --size 390x844 --fps 30 \
	    --script docs/demo-script.txt --record docs/demo.webp

# Installs only the Debian packages that are missing (apt-get update first, as a fresh machine needs).
deps-run:
	@./scripts/install-packages $(RUN_PACKAGES)

deps-test:
	@./scripts/install-packages $(TEST_PACKAGES)
	@python3 -c 'import vncdotool' 2>/dev/null || python3 -m pip install -q vncdotool

deps-bench:
	@./scripts/install-packages $(BENCH_PACKAGES)

clean:
	swift package clean
