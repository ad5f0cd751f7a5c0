#include "common/run/sim_backend.h"

#include <cmath>

#include "common/io/version.h"
#include "common/model/fitted.h"
#include "common/model/sim.h"
#include "common/target/targets.h"
#include "common/records/jsonl.h"

namespace nx {

Execution SimBackend::run(const Workload& w) {
    const Target* t = find_target(o_.target);
    model::SimResult r = model::simulate(w, *t);
    Execution e;
    // Every timed "execution" is the same prediction; the count says how many
    // were asked for, the spread is zero by construction.
    e.latencies_us.assign(static_cast<size_t>(o_.timed), r.latency_ns / 1e3);
    e.toolchain = std::string("nx-sim ") + nx_version();
    rapidjson::StringBuffer sb;
    JsonWriter j(sb);
    j.StartObject();
    j.Key("instructions");
    j.Int64(r.instructions);
    j.Key("dma_transfers");
    j.Int64(r.dma_transfers);
    if (!r.variant.empty()) {
        j.Key("variant");
        j.String(r.variant.c_str());
    }
    j.Key("device_us");
    write_number(j, r.device_ns / 1e3);
    j.Key("hardware_flops");
    write_number(j, r.hardware_flops);
    j.Key("hbm_bytes");
    write_number(j, r.hbm_bytes);
    j.Key("sbuf_peak_bytes");
    write_number(j, r.sbuf_peak_bytes);
    // How far off the model was on comparable calibration points
    // (nx-sim(7)); none when no point is comparable, and the basis says so.
    const model::ErrorBand band =
        model::error_band({model::op_family(w.op), t->name, to_string(*parse_dtype(w.dtype)), r.lnc, r.lanes});
    if (band.known()) {
        j.Key("error_band_percent");
        write_number(j, std::round(band.percent * 10) / 10);
    }
    j.Key("error_band_basis");
    j.String(band.basis.c_str());
    j.EndObject();
    e.predicted_json.assign(sb.GetString(), sb.GetSize());
    return e;
}

void SimBackend::trace(const Workload& w, ImportHandler& out) {
    model::simulate(w, *find_target(o_.target), &out);
}

}  // namespace nx
