# A thin wrapper around CMake for tools that build engines with `make`, such as
# OpenBench: `make EXE=<name> CXX=<compiler> EVALFILE=<net>` builds the engine as
# ./<name> from this directory. CMake stays the one description of the build.
#
#   EXE       output file name (default: arbiter)
#   CXX       C++ compiler (default: make's own default, c++/g++)
#   EVALFILE  network embedded as the default net (default: the one named in nets/)
#   NATIVE=1  build for this machine's CPU (-march=native; PEXT sliders with BMI2)
#
# Then `./<name> bench` prints, as its last line, `<nodes> nodes <nps> nps`.

EXE ?= arbiter
NATIVE ?= 0
# One build directory per compiler: CMake cannot change the compiler of a configured tree.
BUILD_DIR ?= build-make-$(notdir $(CXX))

CMAKE_ARGS := -DCMAKE_BUILD_TYPE=Release -DARBITER_BUILD_TESTS=OFF -DCMAKE_CXX_COMPILER=$(CXX)
# Always passed, empty included: the CMake cache would otherwise keep a previous net.
CMAKE_ARGS += -DARBITER_EVALFILE=$(if $(strip $(EVALFILE)),$(abspath $(EVALFILE)))
ifeq ($(NATIVE),1)
CMAKE_ARGS += -DARBITER_NATIVE=ON
else
CMAKE_ARGS += -DARBITER_NATIVE=OFF
endif

.PHONY: all clean FORCE

all: $(EXE)

$(EXE): FORCE
	cmake -S . -B $(BUILD_DIR) $(CMAKE_ARGS) --log-level=WARNING
	cmake --build $(BUILD_DIR) --target arbiter -j $(or $(JOBS),$(shell nproc 2>/dev/null || echo 2))
	cp $(BUILD_DIR)/arbiter $(EXE)

clean:
	rm -rf build-make-*
	rm -f $(EXE)
