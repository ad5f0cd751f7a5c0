#include "common/parquet/table_reader.h"

#include "common/error.h"

namespace nx::parquet {

TableReader::TableReader(std::vector<std::string> files, std::vector<std::string> columns)
    : files_(std::move(files)), names_(std::move(columns)), cursors_(names_.size()), infos_(names_.size()) {
    if (files_.empty()) throw Error("a table with no files");
}

bool TableReader::open_file(size_t index) {
    if (index >= files_.size()) return false;
    file_index_ = index;
    file_ = ParquetFile::open(files_[index]);
    for (size_t i = 0; i < names_.size(); ++i) {
        const ColumnInfo* c = file_->find_column(names_[i]);
        if (!c) continue;
        if (!infos_[i]) {
            infos_[i] = std::make_unique<ColumnInfo>(*c);
        } else if (infos_[i]->type != c->type || infos_[i]->is_list != c->is_list) {
            throw Error("column " + names_[i] + " is " + to_string(c->type) + " here but " + to_string(infos_[i]->type) +
                        " in " + files_[0] + " (parts of one table must agree)", files_[index]);
        }
    }
    group_ = 0;
    return true;
}

const ColumnInfo* TableReader::info(size_t i) const { return infos_[i].get(); }

const ParquetFile& TableReader::first_file() {
    if (!started_) {
        open_file(0);
        started_ = true;
        group_ = 0;
        group_rows_ = 0;
        row_ = -1;
    }
    return *file_;
}

std::vector<std::string> TableReader::column_names() {
    std::vector<std::string> out;
    for (const ColumnInfo& c : first_file().columns()) out.push_back(c.name);
    return out;
}

bool TableReader::open_group() {
    while (group_ >= file_->row_groups()) {
        if (!open_file(file_index_ + 1)) return false;
    }
    const RowGroup& g = file_->metadata().row_groups[group_];
    group_rows_ = g.num_rows;
    row_ = -1;
    for (size_t i = 0; i < names_.size(); ++i) {
        const ColumnInfo* c = file_->find_column(names_[i]);
        cursors_[i] = c ? std::make_unique<ColumnCursor>(*file_, group_, *c) : nullptr;
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
        if (!open_group()) return false;
    }
    ++row_;
    for (auto& c : cursors_)
        if (c) c->next_row();
    return true;
}

}  // namespace nx::parquet
