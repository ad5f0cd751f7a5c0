// A device-profile capture directory, as the Neuron runtime writes it
// (NEURON_RT_INSPECT_OUTPUT_DIR, the framework profilers, neuron-explorer
// capture): per process a subdirectory, and in it each execution's NTFF named
// <hash>_instid_<i>_vnc_<v>.ntff beside the NEFF it ran, neff_<hash>.neff.
// The hash (numeric, or a UUID: kNeffHashPattern) pairs them (Neuron Explorer's profile-artifacts page; its
// troubleshooting page: "NEFF/NTFF UUID mismatch ... the numeric hash in
// filenames must be identical").  An NTFF read with another graph's NEFF gives
// that graph's instruction names to this one's events: the vmap/scan/for-loop
// study decoded four of its five traces so (nx-sim(7) BLIND SPOTS).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/io/error.h"

namespace nx {

// The hash a capture names an NTFF or a NEFF with ("123_instid_0_vnc_1.ntff",
// "neff_123.neff", any directory); nullopt for any other name.
std::optional<std::string> ntff_capture_hash(const std::string& path);
std::optional<std::string> neff_capture_hash(const std::string& path);

struct CapturePair {
    std::string ntff;
    std::string neff;  // empty: the capture has no NEFF of the NTFF's hash
    std::string hash;
};

// Every capture-named NTFF under `dir` (subdirectories too, symlinks not
// followed), in path order, each with the NEFF of its hash: the one beside it,
// else the first (in path order) elsewhere in the tree.  Empty when the tree
// has no such NTFF.  Throws Error when the directory cannot be read.
std::vector<CapturePair> find_capture_pairs(const std::string& dir);

// Throws Error (naming the NTFF) when both files carry capture hashes and
// they differ: the NEFF is not the one the NTFF was captured from.
void check_capture_pair(const std::string& ntff, const std::string& neff);

}  // namespace nx
