// Uses the installed runtime library through every public header: prints the loader names the
// library knows and its error for an unknown one, and normalises pixels with its code, so the
// headers must compile outside the project and the program must link and load the library.

#include "runtime/arena.hpp"
#include "runtime/arena_counters.hpp"
#include "runtime/batch_arena_ring.hpp"
#include "runtime/error.hpp"
#include "runtime/image_loader.hpp"
#include "runtime/trace_markers.hpp"

#include <array>
#include <cstdint>
#include <iostream>

int main() {
    using namespace starscope::runtime;
    for (LoaderKind kind : allLoaderKinds()) {
        std::cout << loaderKindName(kind) << '\n';
    }
    auto unknown = parseLoaderKind("no-such-loader");
    if (unknown) {
        return 1;
    }
    std::cout << unknown.error().message << '\n';
    const std::array<std::uint8_t, 2> pixels{0, 255};
    std::array<float, 2> normalised{};
    normalizePixels(pixels.data(), pixels.size(), normalised.data());
    std::cout << normalised[0] << ' ' << normalised[1] << '\n';
    return normalised[1] > normalised[0] ? 0 : 1;
}
