// make calibrate / make calibrate-check: the sim model against the public
// calibration points (common/model/calibration.jsonl, or the file named).
//
//   bench-model_calibrate --fit [--write FILE] [DATA]
//       fits the free parameters to the fit points, prints every point with
//       its error and leave-one-out error, writes the parameters and
//       residuals to FILE (common/model/fitted_params.inc); exits 3 when the
//       calibration goals are not met
//   bench-model_calibrate --check [DATA]
//       predicts every point with the compiled-in parameters; exits 3 when a
//       fit or held-out point is out of its tolerance or any latency drifted
//       more than 2 points from the residual the last fit recorded
//   bench-model_calibrate [DATA]
//       the table with the compiled-in parameters; exits 3 when goals are not met
// Exit 1 for an unreadable or malformed data file, 2 for bad arguments.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "common/io/exit_status.h"
#include "common/io/error.h"
#include "common/io/output.h"
#include "common/model/calibration.h"
#include "common/model/fitted.h"
#include "common/model/sim.h"

int main(int argc, char** argv) {
    std::string data = "common/model/calibration.jsonl", write;
    bool fit = false, check = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--fit")) fit = true;
        else if (!std::strcmp(argv[i], "--check")) check = true;
        else if (!std::strcmp(argv[i], "--write") && i + 1 < argc) write = argv[++i];
        else if (argv[i][0] == '-') {
            std::fprintf(stderr, "calibrate: unknown option %s (--fit [--write FILE], --check)\n", argv[i]);
            return nx::kExitUsage;
        } else data = argv[i];
    }
    try {
        auto points = nx::model::read_calibration_points(data);
        nx::model::CalibrationReport report =
            fit ? nx::model::fit_calibration(points) : nx::model::evaluate_calibration(points, nx::model::fitted_params());
        nx::Output& out = nx::Output::standard();
        nx::model::print_calibration(report, out);
        if (fit && !write.empty()) {
            nx::model::write_fitted_params(report, data, write);
            out.write("\nwrote " + write + " (rebuild to compile the parameters in)\n");
        }
        if (check) nx::model::print_check(report, out);
        out.close();
        if (check) return report.drifted.empty() ? nx::kExitOk : nx::kExitGate;
        return report.goals_met ? nx::kExitOk : nx::kExitGate;
    } catch (const nx::Error& e) {
        std::fprintf(stderr, "calibrate: %s%s\n", nx::location_prefix(e.where(), e.line()).c_str(), e.what());
        return nx::kExitFailure;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "calibrate: %s\n", e.what());
        return nx::kExitFailure;
    }
}
