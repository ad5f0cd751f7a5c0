// Loads OpenBLAS on first use (openblas.h says why not at start).
#include "common/run/openblas.h"

#include <cblas.h>
#include <dlfcn.h>

#include <mutex>
#include <string>

#include "common/io/error.h"

namespace nx {

namespace {

// Debian's libopenblas0 (any of its variants: pthread, openmp, serial)
// provides this name through the alternatives system.
constexpr const char* kLibrary = "libopenblas.so.0";

struct OpenBlas {
    decltype(&cblas_sgemm) sgemm = nullptr;
    decltype(&openblas_get_config) get_config = nullptr;
};

const OpenBlas& library() {
    static OpenBlas lib;
    static std::string failure;
    static std::once_flag once;
    std::call_once(once, [] {
        // Never closed: its thread pool lives until the process ends.
        void* handle = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* why = dlerror();
            failure = why ? why : "not found";
            return;
        }
        lib.sgemm = reinterpret_cast<decltype(&cblas_sgemm)>(dlsym(handle, "cblas_sgemm"));
        lib.get_config = reinterpret_cast<decltype(&openblas_get_config)>(dlsym(handle, "openblas_get_config"));
        if (!lib.sgemm) failure = std::string(kLibrary) + " has no cblas_sgemm";
    });
    if (!lib.sgemm)
        throw Error("the cpu backend needs OpenBLAS (Debian package libopenblas0), which could not be loaded: " +
                    failure);
    return lib;
}

}  // namespace

void openblas_sgemm(int m, int n, int k, const float* a, const float* b, float* c, bool b_transposed) {
    library().sgemm(CblasRowMajor, CblasNoTrans, b_transposed ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, k, b,
                    b_transposed ? k : n, 0.0f, c, n);
}

std::string openblas_version() {
    const OpenBlas& lib = library();
    // openblas_get_config(): "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64".
    std::string config = lib.get_config ? lib.get_config() : "";
    size_t name_end = config.find(' ');
    size_t version_end = name_end == std::string::npos ? name_end : config.find(' ', name_end + 1);
    if (config.rfind("OpenBLAS ", 0) != 0) return "OpenBLAS";
    return config.substr(0, version_end);
}

}  // namespace nx
