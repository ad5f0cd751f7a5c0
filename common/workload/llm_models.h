// LLM shapes for the matmul study's llm mode (neuron-facts.md section 9, from
// the models' published configurations), and the per-layer GEMMs they run.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nx {

struct LlmModel {
    const char* name;  // "llama-3-8b"
    int64_t hidden, ffn, layers, q_heads, kv_heads, head_dim, vocab;
};

const LlmModel* find_llm_model(std::string_view name);
std::string llm_model_names();

// One GEMM [T, K] x [K, N] of a decoder layer (or the LM head).
struct LlmGemm {
    std::string gemm;  // qkv, o, gate, up, down, lm_head
    int64_t K, N;
};

// The GEMMs of one layer and the LM head with tensor parallel degree `tp`:
// column-parallel projections (qkv, gate, up, lm_head) divide N by tp,
// row-parallel ones (o, down) divide K.  Throws Error when tp does not divide.
std::vector<LlmGemm> llm_gemms(const LlmModel& m, int64_t tp);

}  // namespace nx
