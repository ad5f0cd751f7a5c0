#include "common/parquet/table_reader.h"

#include <algorithm>

#include "common/io/error.h"

namespace nx::parquet {

TableReader::TableReader(std::vector<std::string> files, std::vector<std::string> columns, Others others)
    : files_(std::move(files)), names_(std::move(columns)) {
    if (files_.empty()) throw Error("a table with no files");
    cursors_.resize(names_.size());
    view_.resize(names_.size());
    infos_.resize(names_.size());
    info_file_.resize(names_.size());
    // The other columns are named by the footers: read them all now.
    if (others == Others::add) scan(true);
}

void TableReader::scan(bool add) {
    if (scanned_) return;
    file_first_.assign(1, 0);
    for (size_t f = 0; f < files_.size(); ++f) {
        // The first file is kept open (its rows are read first); the others
        // are opened again when their rows are.
        std::unique_ptr<ParquetFile> other;
        if (f > 0) other = ParquetFile::open(files_[f]);
        else if (!file_ || file_->path() != files_[0]) file_ = ParquetFile::open(files_[0]);
        const ParquetFile& pf = f == 0 ? *file_ : *other;
        for (const ColumnInfo& c : pf.columns()) {
            size_t i = static_cast<size_t>(std::find(names_.begin(), names_.end(), c.name) - names_.begin());
            if (i == names_.size()) {
                if (!add) continue;
                names_.push_back(c.name);
                cursors_.emplace_back();
                view_.push_back(nullptr);
                infos_.emplace_back();
                info_file_.push_back(0);
            }
            if (!infos_[i]) {
                infos_[i] = std::make_unique<ColumnInfo>(c);
                info_file_[i] = f;
            } else if (infos_[i]->type != c.type || infos_[i]->is_list != c.is_list) {
                throw Error("column " + c.name + " is " + (c.is_list ? "a LIST of " : "") + to_string(c.type) +
                                " here but " + (infos_[i]->is_list ? "a LIST of " : "") + to_string(infos_[i]->type) +
                                " in " + files_[info_file_[i]] + " (parts of one table must agree)",
                            files_[f]);
            }
        }
        file_first_.push_back(file_first_.back() + pf.num_rows());
    }
    file_index_ = 0;
    scanned_ = true;
}

bool TableReader::open_file(size_t index) {
    if (index >= files_.size()) return false;
    file_index_ = index;
    // scan() left the first file open; a seek back to it must reopen it.
    if (!file_ || file_->path() != files_[index]) file_ = ParquetFile::open(files_[index]);
    // The footers were checked by scan(); a file rewritten since must still agree.
    for (size_t i = 0; i < names_.size(); ++i) {
        const ColumnInfo* c = file_->find_column(names_[i]);
        if (c && infos_[i] && (infos_[i]->type != c->type || infos_[i]->is_list != c->is_list))
            throw Error("column " + names_[i] + " is " + to_string(c->type) + " here but " + to_string(infos_[i]->type) +
                            " in " + files_[info_file_[i]] + " (parts of one table must agree)",
                        files_[index]);
    }
    group_ = 0;
    return true;
}

const ColumnInfo* TableReader::info(size_t i) const { return infos_[i].get(); }

const ParquetFile& TableReader::first_file() {
    if (!started_) {
        scan(false);
        open_file(0);
        started_ = true;
        group_ = 0;
        group_rows_ = 0;
        row_ = -1;
    }
    return *file_;
}

bool TableReader::open_group() {
    while (group_ >= file_->row_groups()) {
        if (!open_file(file_index_ + 1)) return false;
    }
    const RowGroup& g = file_->metadata().row_groups[group_];
    group_rows_ = g.num_rows;
    row_ = -1;
    live_.clear();
    for (size_t i = 0; i < names_.size(); ++i) {
        const ColumnInfo* c = file_->find_column(names_[i]);
        view_[i] = nullptr;
        if (!c) continue;
        if (cursors_[i]) cursors_[i]->reset(*file_, group_, *c);
        else cursors_[i] = std::make_unique<ColumnCursor>(*file_, group_, *c, &scratch_);
        view_[i] = cursors_[i].get();
        live_.push_back(view_[i]);
    }
    return true;
}

bool TableReader::next() {
    if (!group_open_) {
        first_file();
        if (!open_group()) return false;
        group_open_ = true;
    }
    while (row_ + 1 >= group_rows_) {
        ++group_;
        group_first_ += group_rows_;
        group_rows_ = 0;
        if (!open_group()) return false;
    }
    ++row_;
    for (ColumnCursor* c : live_) c->next_row();
    return true;
}

int64_t TableReader::file_first_row(size_t index) {
    scan(false);
    return file_first_[index];
}

bool TableReader::seek(int64_t target) {
    if (target < 0) return false;
    scan(false);
    if (group_open_ && target >= group_first_ + std::max<int64_t>(row_, 0) && target < group_first_ + group_rows_) {
        advance_to(target);
        return true;
    }
    // The file that holds the row, then its row group.  Until that group is
    // open the cursors describe nothing: a failure below must not leave
    // them looking valid for the fast path above.
    group_open_ = false;
    group_rows_ = 0;
    row_ = -1;
    size_t f = 0;
    while (f < files_.size() && file_first_row(f + 1) <= target) ++f;
    if (f >= files_.size()) return false;
    if (!started_ || file_index_ != f) open_file(f);
    started_ = true;
    int64_t first = file_first_row(f);
    size_t g = 0;
    const auto& groups = file_->metadata().row_groups;
    while (g < groups.size() && first + groups[g].num_rows <= target) first += groups[g++].num_rows;
    if (g >= groups.size()) return false;  // the footer's row groups hold fewer rows than it says
    group_ = g;
    group_first_ = first;
    if (!open_group()) return false;
    group_open_ = true;
    advance_to(target);
    return true;
}

void TableReader::advance_to(int64_t target) {
    while (group_first_ + row_ < target) {
        ++row_;
        for (ColumnCursor* c : live_) c->next_row();
    }
}

}  // namespace nx::parquet
