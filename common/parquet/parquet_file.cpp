#include "common/parquet/parquet_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/io/error.h"
#include "common/parquet/bytes.h"
#include "common/parquet/thrift_compact.h"

namespace nx::parquet {

std::unique_ptr<ParquetFile> ParquetFile::open(const std::string& path) {
    std::unique_ptr<ParquetFile> f(new ParquetFile());
    f->path_ = path;
    f->fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (f->fd_ < 0) throw Error(std::string("cannot open: ") + std::strerror(errno), path);
    struct stat st {};
    if (fstat(f->fd_, &st) != 0 || !S_ISREG(st.st_mode)) throw Error("not a regular file", path);
    f->size_ = st.st_size;
    if (f->size_ < 12) throw Error("not a Parquet file: " + std::to_string(f->size_) + " bytes is shorter than its header and footer", path);
    uint8_t head[4], tail[8];
    f->read_at(0, 4, head);
    f->read_at(f->size_ - 8, 8, tail);
    if (std::memcmp(head, "PAR1", 4) != 0) throw Error("not a Parquet file: no PAR1 magic at the start", path);
    if (std::memcmp(tail + 4, "PAR1", 4) != 0) {
        if (std::memcmp(tail + 4, "PARE", 4) == 0) throw Error("encrypted Parquet footers are not supported", path);
        throw Error("not a Parquet file, or cut short: no PAR1 magic at the end", path);
    }
    uint32_t footer = get_le32(tail);
    if (footer > kMaxFooterBytes || static_cast<int64_t>(footer) > f->size_ - 12)
        throw Error("footer length " + std::to_string(footer) + " is past the start of the file (" +
                    std::to_string(f->size_) + " bytes): cut short or corrupt", path);
    f->data_end_ = f->size_ - 8 - footer;
    std::vector<uint8_t> buf(footer);
    f->read_at(f->data_end_, footer, buf.data());
    try {
        f->meta_ = decode_file_metadata(buf.data(), buf.size());
        f->build_columns();
    } catch (const ThriftError& e) {
        throw Error(std::string("footer: ") + e.what(), path);
    }
    return f;
}

ParquetFile::~ParquetFile() {
    if (fd_ >= 0) ::close(fd_);
}

void ParquetFile::read_at(int64_t offset, size_t n, uint8_t* out) const {
    if (offset < 0 || static_cast<uint64_t>(offset) + n > static_cast<uint64_t>(size_))
        throw Error("a read of " + std::to_string(n) + " bytes at offset " + std::to_string(offset) +
                    " is past the end of the file (" + std::to_string(size_) + " bytes)", path_);
    size_t done = 0;
    while (done < n) {
        ssize_t r = ::pread(fd_, out + done, n - done, offset + static_cast<int64_t>(done));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) throw Error(std::string("read failed: ") + (r < 0 ? std::strerror(errno) : "file shrank"), path_);
        done += static_cast<size_t>(r);
    }
}

const ColumnInfo* ParquetFile::find_column(std::string_view name) const {
    for (const ColumnInfo& c : columns_)
        if (c.name == name) return &c;
    return nullptr;
}

namespace {

// Walks the flattened schema (depth first, num_children per group).
struct SchemaWalker {
    const std::vector<SchemaElement>& s;
    size_t next = 1;       // element 0 is the root
    size_t leaves = 0;
    std::vector<ColumnInfo>& out;
    int depth = 0;

    static constexpr int kMaxDepth = 32;

    const SchemaElement& take() {
        if (next >= s.size()) throw ThriftError("corrupt metadata: the schema has fewer elements than its groups claim");
        return s[next++];
    }

    // The next leaf column, named `name`, typed as element `e` says.
    ColumnInfo leaf_column(const std::string& name, const SchemaElement& e) {
        if (!e.type) throw ThriftError("corrupt metadata: leaf '" + name + "' without a type");
        ColumnInfo c;
        c.name = name;
        c.leaf = leaves++;
        c.type = *e.type;
        c.type_length = e.type_length;
        c.is_string = e.logical_string || (e.converted_type && *e.converted_type == kConvertedUtf8);
        c.is_unsigned = e.is_unsigned();
        return c;
    }

    static int def_of(const SchemaElement& e) { return e.repetition && *e.repetition != Repetition::required ? 1 : 0; }
    static int rep_of(const SchemaElement& e) { return e.repetition && *e.repetition == Repetition::repeated ? 1 : 0; }

    // A subtree whose leaves are all listed under `prefix` (nested structs).
    void nested(const SchemaElement& e, const std::string& prefix, int def, int rep) {
        if (++depth > kMaxDepth) throw ThriftError("corrupt metadata: schema nested too deep");
        std::string path = prefix.empty() ? e.name : prefix + "." + e.name;
        def += def_of(e);
        rep += rep_of(e);
        if (e.num_children == 0) {
            ColumnInfo c = leaf_column(path, e);
            c.max_def = def;
            c.max_rep = rep;
            if (rep > 0) c.is_list = true;  // a repeated leaf inside a struct: kept as a list
            out.push_back(c);
        } else {
            for (int32_t i = 0; i < e.num_children; ++i) nested(take(), path, def, rep);
        }
        --depth;
    }

    void top_level() {
        const SchemaElement& root = s[0];
        for (int32_t i = 0; i < root.num_children; ++i) field(take());
        if (next != s.size()) throw ThriftError("corrupt metadata: schema elements left over after the root's children");
    }

    void field(const SchemaElement& e) {
        bool list_annotated = e.logical_list || (e.converted_type && *e.converted_type == kConvertedList);
        if (e.num_children == 0) {
            if (e.repetition && *e.repetition == Repetition::repeated) {
                // A bare repeated primitive: a list of non-null elements.
                size_t before = out.size();
                nested(e, "", 0, 0);
                out[before].list_def = 0;
                out[before].element_def = 1;
                return;
            }
            nested(e, "", 0, 0);
            return;
        }
        if (list_annotated && e.num_children == 1) {
            const SchemaElement& repeated = take();
            if (!repeated.repetition || *repeated.repetition != Repetition::repeated)
                throw ThriftError("corrupt metadata: LIST '" + e.name + "' without a repeated child");
            int list_def = def_of(e);
            int element_def = list_def + 1;
            if (repeated.num_children == 0) {
                // Legacy 2-level form: the repeated field is the element.
                add_list_leaf(e.name, repeated, list_def, element_def, 0);
                return;
            }
            if (repeated.num_children == 1) {
                const SchemaElement& elem = take();
                if (elem.num_children == 0) {
                    // Standard 3-level form (element may be optional), or the
                    // legacy form with a one-field group element.
                    add_list_leaf(e.name, elem, list_def, element_def, def_of(elem));
                    return;
                }
                nested(elem, e.name + "." + repeated.name, element_def, 1);
                return;
            }
            for (int32_t i = 0; i < repeated.num_children; ++i) nested(take(), e.name + "." + repeated.name, element_def, 1);
            return;
        }
        // A struct (or MAP): its leaves become dotted columns.
        for (int32_t i = 0; i < e.num_children; ++i) nested(take(), e.name, def_of(e), rep_of(e));
    }

    void add_list_leaf(const std::string& name, const SchemaElement& leaf, int list_def, int element_def, int leaf_def) {
        ColumnInfo c = leaf_column(name, leaf);
        c.is_list = true;
        c.list_def = list_def;
        c.element_def = element_def;
        c.max_def = element_def + leaf_def;
        c.max_rep = 1;
        out.push_back(c);
    }
};

}  // namespace

void ParquetFile::build_columns() {
    SchemaWalker w{meta_.schema, 1, 0, columns_};
    w.top_level();
    for (const RowGroup& g : meta_.row_groups) {
        if (g.columns.size() != columns_.size())
            throw ThriftError("corrupt metadata: a row group has " + std::to_string(g.columns.size()) +
                              " column chunks for " + std::to_string(columns_.size()) + " columns");
        for (size_t i = 0; i < g.columns.size(); ++i) {
            const ColumnChunk& c = g.columns[i];
            if (!c.file_path.empty()) throw ThriftError("column chunks in other files are not supported");
            if (!c.meta) throw ThriftError("corrupt metadata: a column chunk without metadata");
            if (c.meta->type != columns_[i].type)
                throw ThriftError("corrupt metadata: column '" + columns_[i].name + "' is " + to_string(columns_[i].type) +
                                  " in the schema but " + to_string(c.meta->type) + " in a row group");
        }
    }
}

}  // namespace nx::parquet
