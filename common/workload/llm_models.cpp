#include "common/workload/llm_models.h"

#include "common/io/error.h"
#include "common/io/named_rows.h"

namespace nx {

namespace {
// neuron-facts.md section 9 (the models' config.json on their model cards).
constexpr LlmModel kModels[] = {
    {"llama-2-7b", 4096, 11008, 32, 32, 32, 128, 32000},
    {"llama-3-8b", 4096, 14336, 32, 32, 8, 128, 128256},
    {"llama-3-70b", 8192, 28672, 80, 64, 8, 128, 128256},
};
}  // namespace

const LlmModel* find_llm_model(std::string_view name) { return find_named(kModels, name); }

std::string llm_model_names() { return joined_names(kModels); }

std::vector<LlmGemm> llm_gemms(const LlmModel& m, int64_t tp) {
    if (tp < 1) throw Error("tensor parallel degree must be at least 1");
    int64_t qkv = (m.q_heads + 2 * m.kv_heads) * m.head_dim;
    auto split = [&](int64_t v, const char* what) {
        if (v % tp != 0)
            throw Error(std::string(m.name) + ": " + what + " (" + std::to_string(v) + ") is not divisible by tp " +
                        std::to_string(tp));
        return v / tp;
    };
    return {
        {"qkv", m.hidden, split(qkv, "q+2kv heads x head_dim")},
        {"o", split(m.hidden, "hidden"), m.hidden},
        {"gate", m.hidden, split(m.ffn, "ffn")},
        {"up", m.hidden, split(m.ffn, "ffn")},
        {"down", split(m.ffn, "ffn"), m.hidden},
        {"lm_head", m.hidden, split(m.vocab, "vocab")},
    };
}

}  // namespace nx
