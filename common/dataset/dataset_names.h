// Names read from input become file names here and nowhere else.  A profile
// id (nx makes "p_<16 hex>", but an nx event stream or a study database
// names its own), a rank and a table name are data: each is turned into one
// path component of the dataset by a rule that cannot leave the folder it
// is meant for, and turned back when the dataset is read.
//
// A profile's file stem is its id with every byte but letters, digits, '-',
// '.' and '_' written as %XX (as Hive escapes partition values), and a
// leading '.' or '_' too, which every engine would take for a hidden file;
// at most kMaxStemBytes once written so.  A rank's folder is rank=<r>, r from 0, or
// the null partition.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace nx::dataset {

inline constexpr size_t kMaxStemBytes = 200;

// The stem of a profile's files (and of its bookkeeping files: partition
// note, lock, journal).  Throws Error for an empty id or one too long.
std::string file_stem(std::string_view profile_id);
// The id a stem names; none for a name nx would not have written.
std::optional<std::string> profile_id_of_stem(std::string_view stem);

// "rank=<r>", or rank=__HIVE_DEFAULT_PARTITION__ for rank < 0.
std::string partition_folder(int rank);
// The rank a partition folder names, -1 for the null partition; none when
// the name is not one (another key, a number out of range or not as
// partition_folder writes it).
std::optional<int> rank_of_partition_folder(std::string_view name);

}  // namespace nx::dataset
