// The default network, embedded in the executable at build time.
//
// CMake (root CMakeLists.txt, "Default network") reads the net's file name from
// nets/default-net.txt, or takes -DARBITER_EVALFILE=<path>, and writes the generated
// header arbiter_default_net.h in the build folder with
// - ARBITER_DEFAULT_NET_NAME: the file name, always;
// - ARBITER_EMBEDDED_NET_PATH: the absolute path, only when the file existed at
//   configure time (OBJECT_DEPENDS rebuilds this file when the net changes).
// The assembler's .incbin copies the file into .rodata: no conversion to a C array,
// a few milliseconds for a 400 KB net. The bytes are
// validated like any file on first use, so a corrupt default net is refused too.

#include <cstdint>

#include "arbiter_default_net.h"
#include "eval/nnue/network.h"

#ifdef ARBITER_EMBEDDED_NET_PATH
// ELF only: CMake embeds nothing on Apple and Windows targets. The symbols are hidden,
// so they never clash with another library's.
asm(".pushsection .rodata\n"
    ".balign 64\n"
    ".globl arbiter_embedded_net_begin\n"
    ".hidden arbiter_embedded_net_begin\n"
    "arbiter_embedded_net_begin:\n"
    ".incbin \"" ARBITER_EMBEDDED_NET_PATH
    "\"\n"
    ".globl arbiter_embedded_net_end\n"
    ".hidden arbiter_embedded_net_end\n"
    "arbiter_embedded_net_end:\n"
    ".popsection\n");
extern "C" const std::byte arbiter_embedded_net_begin[];
extern "C" const std::byte arbiter_embedded_net_end[];
#endif

namespace arbiter::eval::nnue {

namespace {

LoadResult load_embedded() {
#ifdef ARBITER_EMBEDDED_NET_PATH
    const size_t size =
        reinterpret_cast<uintptr_t>(arbiter_embedded_net_end) - reinterpret_cast<uintptr_t>(arbiter_embedded_net_begin);
    LoadResult result = load_network({arbiter_embedded_net_begin, size});
    if (!result.net) result.error = "the embedded network " ARBITER_DEFAULT_NET_NAME " is invalid: " + result.error;
    return result;
#else
    return LoadResult{nullptr, "this build embeds no network: the file " ARBITER_DEFAULT_NET_NAME
                               " was missing when it was configured (see nets/default-net.txt)"};
#endif
}

// Loaded once, on first use, by whichever thread asks first (a C++11 "magic static").
const LoadResult& embedded() {
    static const LoadResult result = load_embedded();
    return result;
}

}  // namespace

const Network* default_network() { return embedded().net.get(); }

std::string_view default_network_error() { return embedded().error; }

std::string_view default_network_name() { return ARBITER_DEFAULT_NET_NAME; }

}  // namespace arbiter::eval::nnue
