// make calibrate: prints every public calibration point of the sim backend
// (common/model/calibration.jsonl, or the file named on the command line) with
// the published figure, the prediction and the error, and exits 3 when the
// calibration goals are not met (1 for an unreadable data file).
#include <cstdio>
#include <exception>
#include <string>

#include "common/cli/exit_status.h"
#include "common/io/error.h"
#include "common/io/output.h"
#include "common/model/sim.h"

int main(int argc, char** argv) {
    const std::string data = argc > 1 ? argv[1] : "common/model/calibration.jsonl";
    try {
        nx::model::CalibrationReport report = nx::model::run_calibration(data);
        nx::Output& out = nx::Output::standard();
        nx::model::print_calibration(report, out);
        out.close();
        return report.goals_met ? nx::kExitOk : nx::kExitGate;
    } catch (const nx::Error& e) {
        std::fprintf(stderr, "calibrate: %s%s\n", nx::location_prefix(e.where(), e.line()).c_str(), e.what());
        return nx::kExitFailure;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "calibrate: %s\n", e.what());
        return nx::kExitFailure;
    }
}
