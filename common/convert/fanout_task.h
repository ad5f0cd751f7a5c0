// One scheduler task of a fan-out: the entries of the dataset's plan
// (dataset_plan.h) given to this task (task I of N, or every entry not done
// yet), each converted into the dataset with its rank and NEFF.  An entry
// already done is skipped (a re-run converts only what is missing); an entry
// that fails is named and the others go on; each one converted is marked
// done with the profiles it wrote.
#pragma once

#include <string>
#include <vector>

#include "common/convert/convert.h"
#include "common/dataset/dataset_sink.h"

namespace nx {

struct FanoutTask {
    std::string dataset;
    int task = 0, tasks = 1;
    bool missing_only = false;  // every entry not done, whatever its task
};

struct FanoutResult {
    size_t assigned = 0, converted = 0, already_done = 0;
    std::vector<std::string> failed;  // "entry N (rank R): INPUT: message"
};

FanoutResult run_fanout_task(const FanoutTask& task, ProfileBuilder& builder, DatasetSink& sink,
                             const ConvertOptions& options);
// "task 3 of 64: 10 converted, 2 already done, 0 failed, of 12" on stderr.
void note_fanout(const FanoutTask& task, const FanoutResult& r);

}  // namespace nx
