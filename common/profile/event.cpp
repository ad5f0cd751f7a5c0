#include "common/profile/event.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace nx {

namespace {
constexpr std::array<std::string_view, 11> kTypeNames = {"instruction", "dma",    "semaphore", "counter", "runtime",
                                                         "region",      "active", "kernel",    "memcpy",  "memset",
                                                         "device_sync"};
constexpr std::array<std::string_view, kEngineCount> kEngineNames = {
    "", "tensor", "tensor_matrix", "vector", "scalar", "gpsimd", "sync", "dma", "host"};
constexpr std::array<std::string_view, 7> kDmaKindNames = {
    "", "hbm_read", "hbm_write", "spill_save", "spill_reload", "weight_load", "on_chip"};

// ASCII case folding, as std::tolower does in the C locale nx runs in,
// without a libc call per byte (DMA rows test their queue name per row,
// instructions their engine's).
char lower_ascii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c; }

bool contains_nocase(std::string_view hay, std::string_view needle) {
    if (needle.size() > hay.size()) return false;
    for (size_t i = 0; i + needle.size() <= hay.size(); ++i) {
        size_t j = 0;
        while (j < needle.size() && lower_ascii(hay[i + j]) == lower_ascii(needle[j])) ++j;
        if (j == needle.size()) return true;
    }
    return false;
}
}  // namespace

std::string_view to_string(EventType t) { return kTypeNames[static_cast<size_t>(t)]; }
std::string_view to_string(Engine e) { return kEngineNames[static_cast<size_t>(e)]; }
std::string_view to_string(DmaKind k) { return kDmaKindNames[static_cast<size_t>(k)]; }

std::optional<EventType> parse_event_type(std::string_view s) {
    for (size_t i = 0; i < kTypeNames.size(); ++i)
        if (kTypeNames[i] == s) return static_cast<EventType>(i);
    return std::nullopt;
}

std::optional<Engine> parse_engine(std::string_view s) {
    for (size_t i = 0; i < kEngineNames.size(); ++i)
        if (kEngineNames[i] == s) return static_cast<Engine>(i);
    return std::nullopt;
}

std::optional<DmaKind> parse_dma_kind(std::string_view s) {
    for (size_t i = 0; i < kDmaKindNames.size(); ++i)
        if (kDmaKindNames[i] == s) return static_cast<DmaKind>(i);
    return std::nullopt;
}

std::string_view event_track(const Event& e) {
    if (!e.track.empty()) return e.track;
    return e.engine != Engine::none ? to_string(e.engine) : to_string(e.type);
}

void track_key(const Event& e, std::string& key) {
    std::string_view name = event_track(e);
    key.clear();
    key.reserve(name.size() + 1);
    key.push_back(e.type == EventType::counter ? 'C' : 'S');
    key.append(name);
}

namespace {

// Every name a source gives an engine row: neuron-profile's UI rows
// ("TensorMatrix", "Act"), Explorer's engine column and ActiveTime rows
// ("tensor", "pool"), the short hardware names (PE, DVE, ACT, POOL, SP).
// Matched without regard to case.
struct EngineAlias {
    std::string_view name;
    Engine engine;
};
constexpr EngineAlias kEngineAliases[] = {
    {"tensormatrix", Engine::tensor_matrix}, {"tensor", Engine::tensor}, {"pe", Engine::tensor},
    {"vector", Engine::vector},              {"dve", Engine::vector},    {"scalar", Engine::scalar},
    {"act", Engine::scalar},                 {"activation", Engine::scalar}, {"gpsimd", Engine::gpsimd},
    {"pool", Engine::gpsimd},                {"sync", Engine::sync},     {"sp", Engine::sync},
};

Engine engine_alias(std::string_view name) {
    for (const EngineAlias& a : kEngineAliases)
        if (a.name.size() == name.size() &&
            std::equal(name.begin(), name.end(), a.name.begin(),
                       [](char x, char y) { return lower_ascii(x) == y; }))
            return a.engine;
    return Engine::none;
}

}  // namespace

Engine engine_from_label(std::string_view label) {
    if (Engine e = engine_alias(label); e != Engine::none) return e;
    // Older UI rows add an "E" ("TensorMatrixE", "VectorE").
    if (label.size() > 1 && label.back() == 'E') return engine_alias(label.substr(0, label.size() - 1));
    return Engine::none;
}

DmaKind dma_kind_from_queue(std::string_view queue) {
    if (contains_nocase(queue, "spillreload") || contains_nocase(queue, "reload")) return DmaKind::spill_reload;
    if (contains_nocase(queue, "spillsave") || contains_nocase(queue, "spill")) return DmaKind::spill_save;
    if (contains_nocase(queue, "weight")) return DmaKind::weight_load;
    return DmaKind::unknown;
}

namespace {

enum class Memory { unknown, on_chip, hbm, weight, spill };

// Every name in a memory field ("[[\"WEIGHT\"]]", "SB"), folded into one
// place; a field naming two different places (a gather from HBM and SBUF)
// is unknown.
Memory memory_of(std::string_view field) {
    Memory found = Memory::unknown;
    bool any = false;
    size_t i = 0;
    while (i < field.size()) {
        if (!std::isalnum(static_cast<unsigned char>(field[i]))) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < field.size() && (std::isalnum(static_cast<unsigned char>(field[j])) || field[j] == '_')) ++j;
        std::string_view name = field.substr(i, j - i);
        i = j;
        Memory m;
        if (name == "SB" || name == "SBUF" || name == "PSUM") m = Memory::on_chip;
        else if (name == "WEIGHT" || name == "WEIGHTS") m = Memory::weight;
        else if (name == "SPILL" || name == "DRAM_SPILL") m = Memory::spill;
        else if (name == "IN" || name == "INPUT" || name == "OUT" || name == "OUTPUT" || name == "HBM" ||
                 name == "DRAM" || name == "IO")
            m = Memory::hbm;
        else return Memory::unknown;  // "unknown", or a name nx cannot place
        if (any && m != found) return Memory::unknown;
        found = m;
        any = true;
    }
    return found;
}

}  // namespace

DmaKind dma_kind_from_memories(std::string_view source, std::string_view dest) {
    Memory from = memory_of(source), to = memory_of(dest);
    if (from == Memory::unknown || to == Memory::unknown) return DmaKind::unknown;
    bool to_chip = to == Memory::on_chip, from_chip = from == Memory::on_chip;
    if (from_chip && to_chip) return DmaKind::on_chip;
    if (to_chip) {
        if (from == Memory::weight) return DmaKind::weight_load;
        if (from == Memory::spill) return DmaKind::spill_reload;
        return DmaKind::hbm_read;
    }
    if (from_chip) return to == Memory::spill ? DmaKind::spill_save : DmaKind::hbm_write;
    return DmaKind::unknown;  // HBM to HBM: neither a read into nor a write from the chip
}

std::string_view core_track(std::string_view base, int64_t pcore, std::string& scratch) {
    if (pcore <= 0) return base;
    scratch = "pcore" + std::to_string(pcore) + "/" + std::string(base);
    return scratch;
}

int32_t subgraph_core(std::string_view subgraph) {
    if (subgraph.starts_with("/")) subgraph.remove_prefix(1);
    if (!subgraph.starts_with("sg") || subgraph.size() < 3 || subgraph.size() > 6) return -1;
    int32_t n = 0;
    for (char c : subgraph.substr(2)) {
        if (c < '0' || c > '9') return -1;
        n = n * 10 + (c - '0');
    }
    return n;
}

}  // namespace nx
