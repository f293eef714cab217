# AttnViz: the two commands a user needs.
#   make run    install what is missing (apt-get), build Release into build/, start the window
#   make test   the same set-up plus Xvfb, then the whole suite through ctest
#   make test-sanitize  the whole suite (GUI tests too) under ASan + UBSan, in build-sanitize/
#   make test-sanitize-core  the same without the window (core, files, command line), in build-sanitize-core/
#   make fuzz           libFuzzer harnesses (clang-14) for every reader, FUZZ_SECONDS each
#   make test-portable  a build without -march=native and OpenMP (build-portable/), core tests
#   make soak           the monkey: MONKEY_ACTIONS (2,000) seeded random actions in the real window
#   make golden         re-draws the golden pictures (tests/gui/golden/) after an intended change
#   make screenshots    re-draws the README's pictures of the Chinese window (assets/screenshots.sh)
#   make install        installs the build into PREFIX (default /usr/local), under DESTDIR if set
#   make package        a .deb for other machines (x86-64-v3, build-package/attnviz_<version>_amd64.deb)
#   make web            the browser build (WebAssembly + WebGL2) into build-web/: copy that folder to any web server
#   make web-serve      serves build-web/ on http://127.0.0.1:$(WEB_PORT)/ (WEB_PORT, 8031 by default)
#   make web-test       the core tests under node and the page in headless Chromium (ctest in build-web-obj/)
# Other targets: make build, make bench, make deps, make clean.

BUILD_DIR ?= build
JOBS      ?= 2
CMAKE_FLAGS ?=

# Debian 12 packages. Everything the build and the tests use comes from here.
BUILD_PKGS := cmake make g++ pkg-config libeigen3-dev libimgui-dev libglfw3-dev libgl-dev libx11-dev \
              libepoxy-dev libstb-dev libgif-dev libimagequant-dev libcairo2-dev libpango1.0-dev doctest-dev libcli11-dev nlohmann-json3-dev fonts-dejavu-core fonts-droid-fallback \
              fonts-noto-cjk
TEST_PKGS  := xvfb xauth x11-xserver-utils libgl1-mesa-dri xdotool python3 imagemagick xclip desktop-file-utils appstream ffmpeg poppler-utils
# dpkg-shlibdeps (dpkg-dev) and file find the .deb's library dependencies.
PACKAGE_PKGS := dpkg-dev file desktop-file-utils appstream
# g++'s ASan/UBSan runtimes (libasan8, libubsan1) come with g++ itself.
FUZZ_PKGS  := clang-14 libclang-rt-14-dev

# Builds that must run on any x86-64 since ~2015 and under valgrind (which has no
# AVX-512): AVX2 + FMA instead of this machine's -march=native.
PORTABLE_ARCH ?= x86-64-v3
SANITIZE_DIR  ?= build-sanitize
SANITIZE_CORE_DIR ?= build-sanitize-core
FUZZ_DIR      ?= build-fuzz
PORTABLE_DIR  ?= build-portable
FUZZ_SECONDS  ?= 60
MONKEY_ACTIONS ?= 2000
MONKEY_SEED   ?= 1
PREFIX        ?= /usr/local
DESTDIR       ?=
PACKAGE_DIR   ?= build-package
# A package runs on other machines: any x86-64 CPU since about 2015, not -march=native.
PACKAGE_ARCH  ?= x86-64-v3

.PHONY: run test soak build deps test-deps bench clean test-sanitize test-sanitize-core fuzz test-portable golden screenshots install package \
        web web-serve web-test

run: build
	./$(BUILD_DIR)/attnviz

# Two tests at a time (JOBS): the window tests each start their own Xvfb and wait for
# states, not times, so they may share the machine with each other and the unit tests.
test: test-deps build
	cd $(BUILD_DIR) && ctest --output-on-failure --timeout 900 -j $(JOBS)

# The soak run: the monkey's seeded random actions in the real window (MONKEY_ACTIONS,
# 2,000 by default; CI runs a shorter one). Replay a failure with monkey.py --seed S.
soak: test-deps build
	python3 tests/gui/monkey/monkey.py $(CURDIR)/$(BUILD_DIR)/attnviz --actions $(MONKEY_ACTIONS) --seed $(MONKEY_SEED)

build: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The golden-picture tests with ATTNVIZ_UPDATE_GOLDEN=1: each draws its pictures and copies
# them into tests/gui/golden/<name>/ instead of comparing. Look at `git diff --stat` and
# the pictures before committing them.
golden: test-deps build
	cd $(BUILD_DIR) && ATTNVIZ_UPDATE_GOLDEN=1 ctest -R '^gui golden ' --output-on-failure

# The README's pictures that AttnViz draws itself (attnviz snapshot under Xvfb): look at
# them before committing.
screenshots: test-deps build
	./assets/screenshots.sh ./$(BUILD_DIR)/attnviz

# Installs only what dpkg says is missing, so repeated runs stay fast and offline.
deps:
	@./third_party/install-deps.sh $(BUILD_PKGS)

test-deps:
	@./third_party/install-deps.sh $(BUILD_PKGS) $(TEST_PKGS)

# Everything runs under ASan + UBSan with leak checking; any report fails the test.
# Programs that open a GL context check for leaks just before glfwTerminate(), while
# Mesa's driver is still loaded (app/gui/gl/leak_check.h); tests/sanitize/lsan.supp names
# the system libraries whose leaks are theirs.
SANITIZE_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
                LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitize/lsan.supp:print_suppressions=0 \
                UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
test-sanitize: test-deps
	cmake -S . -B $(SANITIZE_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTNVIZ_SANITIZE=ON \
	      -DATTNVIZ_ARCH=$(PORTABLE_ARCH) $(CMAKE_FLAGS)
	cmake --build $(SANITIZE_DIR) -j $(JOBS)
	cd $(SANITIZE_DIR) && $(SANITIZE_ENV) ctest --output-on-failure --timeout 1200 -j $(JOBS)

# The sanitizer build without the window: every core, file and command-line test, in
# about a third of test-sanitize's time (what CI runs).
test-sanitize-core: deps
	cmake -S . -B $(SANITIZE_CORE_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTNVIZ_SANITIZE=ON \
	      -DATTNVIZ_ARCH=$(PORTABLE_ARCH) -DATTNVIZ_BUILD_GUI=OFF $(CMAKE_FLAGS)
	cmake --build $(SANITIZE_CORE_DIR) -j $(JOBS)
	cd $(SANITIZE_CORE_DIR) && $(SANITIZE_ENV) ctest --output-on-failure --timeout 1200 -j $(JOBS)

# clang without OpenMP (Debian's clang would need libomp) and without the window.
fuzz: deps
	@./third_party/install-deps.sh $(FUZZ_PKGS)
	cmake -S . -B $(FUZZ_DIR) -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
	      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTNVIZ_FUZZ=ON -DATTNVIZ_BUILD_GUI=OFF \
	      -DATTNVIZ_FAST_MATH_FLAGS=OFF -DATTNVIZ_ARCH=$(PORTABLE_ARCH) -DBUILD_TESTING=OFF
	cmake --build $(FUZZ_DIR) -j $(JOBS)
	./tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS)

# The configuration an installable binary would use: no -march=native, no OpenMP.
test-portable: deps
	cmake -S . -B $(PORTABLE_DIR) -DCMAKE_BUILD_TYPE=Release -DATTNVIZ_FAST_MATH_FLAGS=OFF \
	      -DATTNVIZ_ARCH=none -DATTNVIZ_BUILD_GUI=OFF $(CMAKE_FLAGS)
	cmake --build $(PORTABLE_DIR) -j $(JOBS)
	cd $(PORTABLE_DIR) && ctest --output-on-failure --timeout 600 -j $(JOBS)

# The binary, menu entry, icons, AppStream metadata, models and lessons (cmake/install.cmake).
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD_DIR) --prefix "$(PREFIX)"

# build-package/attnviz_<version>_<arch>.deb through CPack, then checked (packaging/check_deb.sh):
# its Depends, a simulated apt install and the unpacked files. Install it with
# `apt install ./build-package/attnviz_*.deb`.
package: deps
	@./third_party/install-deps.sh $(PACKAGE_PKGS)
	cmake -S . -B $(PACKAGE_DIR) -DCMAKE_BUILD_TYPE=Release -DATTNVIZ_ARCH=$(PACKAGE_ARCH) -DBUILD_TESTING=OFF $(CMAKE_FLAGS)
	cmake --build $(PACKAGE_DIR) -j $(JOBS)
	rm -f $(PACKAGE_DIR)/attnviz_*.deb
	cd $(PACKAGE_DIR) && cpack -G DEB
	./packaging/check_deb.sh $(PACKAGE_DIR)/attnviz_*.deb $$(sed -n 's/^ATTNVIZ_APP_ID:INTERNAL=//p' $(PACKAGE_DIR)/CMakeCache.txt)

# The browser build, with Debian's emscripten (emcc 3.1.6) only. build-web/ is the page
# (index.html, attnviz.js/.wasm/.data); build-web-obj/ holds CMake's files, the sources of
# Dear ImGui, giflib and libimagequant (web/debian_source.sh: Debian's source packages of
# the versions libimgui-dev, libgif-dev and libimagequant-dev install; the version check
# greps each library's header) and the CJK font subset. README "In the browser" says what
# differs from the desktop.
WEB_DIR  ?= build-web
WEB_OBJ  ?= build-web-obj
WEB_PORT ?= 8031
WEB_PKGS := emscripten cmake make libeigen3-dev nlohmann-json3-dev libcli11-dev libstb-dev doctest-dev \
            fonts-dejavu-core fonts-noto-cjk python3-fonttools patch
WEB_TEST_PKGS := chromium python3-websocket
# emcc's JavaScript optimizer needs acorn, which Debian ships in /usr/share/nodejs.
WEB_ENV  := NODE_PATH=/usr/share/nodejs
WEB_CJK  := $(WEB_OBJ)/NotoSansCJK-subset.ttc
web:
	@./third_party/install-deps.sh $(WEB_PKGS)
	./web/debian_source.sh $(WEB_OBJ) imgui imgui=1.86+ds-1 imgui.h '#define IMGUI_VERSION *"1\.86"'
	./web/debian_source.sh $(WEB_OBJ) giflib giflib=5.2.1-2.5+deb12u1 gif_lib.h \
	      '#define GIFLIB_MAJOR 5$$' '#define GIFLIB_MINOR 2$$' '#define GIFLIB_RELEASE 1$$'
	./web/debian_source.sh $(WEB_OBJ) libimagequant libimagequant=2.17.0-1 libimagequant.h \
	      '#define LIQ_VERSION_STRING "2\.17\.0"'
	$(MAKE) --no-print-directory $(WEB_CJK)
	$(WEB_ENV) emcmake cmake -S . -B $(WEB_OBJ)/cmake -DCMAKE_BUILD_TYPE=Release -DATTNVIZ_FAST_MATH_FLAGS=OFF \
	      -DATTNVIZ_IMGUI_SOURCE=$(CURDIR)/$(WEB_OBJ)/imgui -DATTNVIZ_GIFLIB_SOURCE=$(CURDIR)/$(WEB_OBJ)/giflib \
	      -DATTNVIZ_IMAGEQUANT_SOURCE=$(CURDIR)/$(WEB_OBJ)/libimagequant -DATTNVIZ_WEB_SITE=$(CURDIR)/$(WEB_DIR) \
	      -DATTNVIZ_WEB_CJK=$(CURDIR)/$(WEB_CJK) $(CMAKE_FLAGS)
	$(WEB_ENV) cmake --build $(WEB_OBJ)/cmake -j $(JOBS) --target attnviz_page

# Debian's python (python3-fonttools), whatever python3 comes first on PATH.
$(WEB_CJK): web/cjk_subset.py $(wildcard assets/lang/*.json assets/lessons/*.json assets/models/*.json)
	@mkdir -p $(WEB_OBJ)
	/usr/bin/python3 web/cjk_subset.py $@

# Any static server works (no special headers: the build is single-threaded).
web-serve: web
	@echo "AttnViz in the browser: http://127.0.0.1:$(WEB_PORT)/"
	python3 -m http.server $(WEB_PORT) --bind 127.0.0.1 --directory $(WEB_DIR)

web-test: web
	@./third_party/install-deps.sh $(WEB_TEST_PKGS)
	$(WEB_ENV) cmake --build $(WEB_OBJ)/cmake -j $(JOBS) --target attnviz_web_tests
	cd $(WEB_OBJ)/cmake && ctest --output-on-failure --timeout 900 -j $(JOBS)

bench: build
	./$(BUILD_DIR)/attnviz bench --seq-len 512 --hidden-dim 512 --num-heads 8
	./$(BUILD_DIR)/attnviz bench --seq-len 1024 --hidden-dim 1024 --num-heads 16
	ATTNVIZ=./$(BUILD_DIR)/attnviz ./bench/animation.sh 1

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_DIR) $(SANITIZE_CORE_DIR) $(FUZZ_DIR) $(PORTABLE_DIR) $(PACKAGE_DIR) $(WEB_DIR) $(WEB_OBJ)
