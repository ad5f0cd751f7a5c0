// What the Neuron runtime's capture layout says about a profile, read from
// its path: OUTPUT/<ec2-instance-id>_pid_<pid>/<neff-hash>_instid_<n>_vnc_<k>.ntff
// (cluster-scale.md; the device profile of logical core k of process pid on
// that instance), or one folder further down, as Explorer's documentation
// shows it: OUTPUT/<instance>_pid_<pid>/<timestamp>/<hash>_instid_<n>_vnc_<k>.ntff
// (neuron-explorer-parquet.md, "Capture directory layout"); that deeper
// form only for a file in the runtime's names.  The same names
// with .json or .json.gz (neuron-profile's JSON of that NTFF) say the same.
// The runtime's session mode writes one NTFF per logical core and session
// instead, of every NEFF the process ran: <instance>_pid_<pid>/profile_nc_<n>_session_<k>.ntff
// (neuron-explorer-parquet.md section 13), and Explorer names its export of
// one "<display>_..._session_<k>@latest": core n and session k.
// Fields the path does not give are empty.
// A NEFF's hash is numeric or a UUID (neuron-explorer-parquet.md: "same
// numeric hash / UUID"); both the runtime's names and capture pairing
// (convert/capture_pairs.h) read it with kNeffHashPattern.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace nx {

struct RuntimePath {
    std::string instance_id;   // "i-0abc..." (the folder's part before _pid_)
    int64_t process_id = -1;
    std::string neff_hash;
    int64_t logical_core = -1;  // vnc, or a session's nc
    int64_t session = -1;       // the runtime's session mode: session k
    // The folder between the process folder and the file (a timestamp);
    // empty when the file lies in the process folder.
    std::string run_folder;
    bool any() const {
        return !instance_id.empty() || process_id >= 0 || !neff_hash.empty() || logical_core >= 0 || session >= 0;
    }
};

RuntimePath parse_runtime_path(std::string_view path);

// What the layout says about a profile read from `source`: a file in the
// runtime's names, or a Neuron Explorer directory named as the NTFF it was
// made from (its name without the extension, "@latest" after it or not, a
// trailing slash or not).
RuntimePath runtime_path_of_source(std::string_view source);

// A profile's name from the file (or Explorer directory) it was read from:
// `stem`, and for one in the runtime's layout its process folder (and run
// folder) first, "<instance>_pid_<pid>/[<run folder>/]<stem>".  Every process of a job writes the same
// file names (one per logical core), so the stem alone names the profiles
// of two processes alike.
std::string runtime_profile_name(std::string_view path, std::string_view stem);

// The capture a profile read from `source` belongs to (the ranks of one run
// of a job): the source's directory, or for a file in the runtime's layout
// the directory above its process folder (and run folder), which holds
// every process's.  Only the same capture's profiles compare across ranks.
std::string capture_directory(std::string_view source);

// A NEFF hash as the runtime writes it in file names, as a regular
// expression both RE2 and std::regex read (no capturing group).
inline constexpr const char* kNeffHashPattern =
    R"((?:\d+|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}))";

}  // namespace nx
