# AttnViz: the two commands a user needs.
#   make run    install what is missing (apt-get), build Release into build/, start the window
#   make test   the same set-up plus Xvfb, then the whole suite through ctest
# Other targets: make build, make bench, make deps, make clean.

BUILD_DIR ?= build
JOBS      ?= 2
CMAKE_FLAGS ?=

# Debian 12 packages. Everything the build and the tests use comes from here.
BUILD_PKGS := cmake make g++ pkg-config libeigen3-dev libimgui-dev libglfw3-dev libgl-dev \
              libepoxy-dev libstb-dev doctest-dev libcli11-dev nlohmann-json3-dev fonts-dejavu-core
TEST_PKGS  := xvfb xauth libgl1-mesa-dri xdotool python3 imagemagick


.PHONY: run test build deps test-deps bench clean

run: build
	./$(BUILD_DIR)/attnviz

test: test-deps build
	cd $(BUILD_DIR) && ctest --output-on-failure --timeout 600

build: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Installs only what dpkg says is missing, so repeated runs stay fast and offline.
deps:
	@./third_party/install-deps.sh $(BUILD_PKGS)

test-deps:
	@./third_party/install-deps.sh $(BUILD_PKGS) $(TEST_PKGS)

bench: build
	./$(BUILD_DIR)/attnviz bench --seq-len 512 --hidden-dim 512 --num-heads 8
	./$(BUILD_DIR)/attnviz bench --seq-len 1024 --hidden-dim 1024 --num-heads 16

clean:
	rm -rf $(BUILD_DIR)
