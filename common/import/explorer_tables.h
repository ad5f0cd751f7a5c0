// Finding Neuron Explorer's Parquet tables on disk: a profile directory
// (`<name>@latest/` or any directory holding `<Table>(_N)?.parquet` files), or
// a parent directory holding several.  Tables are matched by the exact
// pattern `^<Table>(_[0-9]+)?\.parquet$`, so DmaPacketAggregated is never
// mistaken for DmaPacket; numbered splits are one table, read in order.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace nx {

struct ExplorerTables {
    std::string dir;
    // Table name -> its files in split order (an unsplit file first).
    std::map<std::string, std::vector<std::string>> tables;
    // Tables whose split set has a hole: table -> what is missing.  Reading
    // one is an error (--keep-going skips it).
    std::map<std::string, std::string> broken;
    const std::vector<std::string>* find(const std::string& table) const;
};

// Why a profile directory is not a finished profile, or empty when it is.
// neuron-explorer writes every table first with its columns and no rows,
// fills them over minutes and Summary last; killed early it leaves truncated
// files (neuron-explorer-parquet.md section 12).  So: a table file without a
// valid footer, a Summary without rows, or tables none of which has a row.
// Opens each file's footer only.
std::string incomplete_reason(const ExplorerTables& tables);

// The tables of one profile directory; empty `tables` when it holds none.
// A split set with a hole (Instruction_0, Instruction_2) goes to `broken`.
ExplorerTables scan_explorer_dir(const std::string& dir);
bool is_explorer_profile_dir(const std::string& dir);
// Profile directories at or below `dir` (three levels: data-path/profiles/global/X@latest).
// A system profile (one with DeviceProfileList) is followed by the device
// profiles it names (linked_device_dirs); each directory comes once, however
// it was reached (the same real path).
std::vector<std::string> find_explorer_profiles(const std::string& dir);
// "dev_nc0" for ".../dev_nc0@latest/": the name Explorer gave the profile.
std::string profile_dir_name(std::string_view dir);
// Where a system profile's device profiles are is not documented: Explorer
// writes each as a `<device_profile_name>@latest` directory of its own
// elsewhere under the data path, most likely beside the system profile in
// profiles/global/ (neuron-explorer-parquet.md section 12).  nx looks below
// the system profile (three levels), beside it, and from the data path's root
// (the directory above `profiles/`, four levels), in that order, and keys
// them by profile_dir_name; the first found of a name wins.
std::map<std::string, std::string> linked_device_dirs(const std::string& system_dir);
// The system profiles a device profile may belong to: directories with a
// DeviceProfileList up to three levels above it, and beside it or beside
// those (nearest first).
std::vector<std::string> system_profiles_near(const std::string& device_dir);

}  // namespace nx
