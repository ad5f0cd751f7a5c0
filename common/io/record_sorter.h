// RecordSorter: fixed-size records read back in the order of a 64-bit key, in
// bounded memory.  Records collect in an in-memory run; a full run is sorted
// and spilled to a scratch file (spill_file.h); draining merges the runs.
// Memory is one run, or while merging the runs' read buffers that share one
// run's size (at least 64 KiB each), whatever the number of records; a run
// that never fills never touches the disk.
//
// Why: SQLite appends rows whose ids only grow at a fraction of the cost of
// inserting them in any other order (and fills its pages): the trace layout
// places a profile's slices in time order, across source tables whose ids are
// each in time order, so its rows are sorted by id here before they are
// stored.
//
// The order is stable: records with equal keys come back in the order they
// were added.  T is trivially copyable and has `int64_t key() const`.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <queue>
#include <string>
#include <type_traits>
#include <vector>

#include "common/io/error.h"
#include "common/io/spill_file.h"

namespace nx {

template <class T>
class RecordSorter {
    static_assert(std::is_trivially_copyable_v<T>);

public:
    // `what` names the data in errors about the scratch file.
    RecordSorter(size_t run_bytes, std::string what)
        : run_records_(std::max<size_t>(1, run_bytes / sizeof(T))), what_(std::move(what)) {}
    ~RecordSorter() { close(); }
    RecordSorter(const RecordSorter&) = delete;
    RecordSorter& operator=(const RecordSorter&) = delete;

    void add(const T& r) {
        if (run_.size() >= run_records_) spill();
        // The whole run at once: growing by doubling would copy it and, for
        // a moment, hold one and a half runs.
        if (run_.capacity() == 0) run_.reserve(run_records_);
        run_.push_back(r);
    }
    size_t size() const { return spilled_ + run_.size(); }
    // Runs written to the scratch file so far (for tests).
    size_t spilled_runs() const { return runs_.size(); }

    // Calls f(record) for every record in key order, then forgets them all.
    template <class F>
    void drain(F&& f) {
        if (runs_.empty()) {
            sort_run();
            for (const T& r : run_) f(r);
        } else {
            // The last run goes to the file too, and its memory to the
            // merge's read buffers.
            spill();
            std::vector<T>().swap(run_);
            merge(f);
        }
        close();
        run_.clear();
        runs_.clear();
        spilled_ = 0;
    }

private:
    struct Run {
        long offset;
        size_t records;
    };

    void sort_run() {
        std::stable_sort(run_.begin(), run_.end(), [](const T& a, const T& b) { return a.key() < b.key(); });
    }

    void spill() {
        if (run_.empty()) return;
        sort_run();
        if (!file_) file_ = open_spill_file(what_);
        if (std::fseek(file_, 0, SEEK_END) != 0) throw Error("cannot seek the temporary " + what_ + " file");
        long offset = std::ftell(file_);
        if (std::fwrite(run_.data(), sizeof(T), run_.size(), file_) != run_.size())
            throw Error("cannot write the temporary " + what_ + " file: " + std::strerror(errno));
        runs_.push_back({offset, run_.size()});
        spilled_ += run_.size();
        run_.clear();
    }

    template <class F>
    void merge(F& f) {
        if (std::fflush(file_) != 0) throw Error("cannot write the temporary " + what_ + " file: " + std::strerror(errno));
        // The runs share one run's memory for their read buffers.
        constexpr size_t kMinBufferRecords = std::max<size_t>(1, (size_t{64} << 10) / sizeof(T));
        size_t per_run = std::max(kMinBufferRecords, run_records_ / runs_.size());
        std::vector<SpilledRunReader<T>> readers;
        std::vector<T> heads(runs_.size());  // each run's next record
        readers.reserve(runs_.size());
        for (const Run& r : runs_)
            readers.emplace_back(file_, r.offset, r.records, per_run, "cannot read the temporary " + what_ + " file");
        // Ties go to the earlier run: the merge keeps the order of arrival.
        using Item = std::pair<int64_t, size_t>;  // key, run
        std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
        for (size_t s = 0; s < readers.size(); ++s)
            if (readers[s].next(heads[s])) heap.push({heads[s].key(), s});
        while (!heap.empty()) {
            size_t s = heap.top().second;
            heap.pop();
            f(heads[s]);
            if (readers[s].next(heads[s])) heap.push({heads[s].key(), s});
        }
    }

    void close() {
        if (file_) std::fclose(file_);
        file_ = nullptr;
    }

    size_t run_records_;
    std::string what_;
    std::vector<T> run_;
    std::FILE* file_ = nullptr;
    std::vector<Run> runs_;
    size_t spilled_ = 0;
};

}  // namespace nx
