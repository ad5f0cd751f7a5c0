// test-parquet_dump [--meta] FILE...: reads Parquet with nx's own reader
// (common/parquet/) and prints every row as a JSON object, one per line, in
// the form the fixture generator writes its .expected.jsonl files (nulls as
// null, lists as arrays, INT96/FIXED_LEN_BYTE_ARRAY as hex).  Several files
// are one split table.  --meta prints one line per column chunk instead:
// row group, column, physical type, codec and encodings.  Exit 1 on error.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "common/io/error.h"
#include "common/io/utf8.h"
#include "common/parquet/table_reader.h"

namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void text(Writer& w, std::string_view s, bool hex) {
    if (!hex) {
        w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
        return;
    }
    std::string h = nx::hex_bytes(s);
    w.String(h.c_str(), static_cast<rapidjson::SizeType>(h.size()));
}

void real(Writer& w, double v) {
    if (std::isfinite(v)) w.Double(v);
    else w.String(std::isnan(v) ? "NaN" : (v > 0 ? "Infinity" : "-Infinity"));
}

void integer(Writer& w, const nx::parquet::ColumnInfo& c, int64_t v) {
    if (c.type == nx::parquet::PhysicalType::boolean) w.Bool(v != 0);
    else if (c.is_unsigned) w.Uint64(static_cast<uint64_t>(v));  // INT64 above INT64_MAX: its bits
    else w.Int64(v);
}

int dump_meta(const char* path) {
    auto f = nx::parquet::ParquetFile::open(path);
    for (size_t g = 0; g < f->row_groups(); ++g) {
        const auto& rg = f->metadata().row_groups[g];
        for (size_t i = 0; i < f->columns().size(); ++i) {
            const auto& m = *rg.columns[i].meta;
            std::string enc;
            for (auto e : m.encodings) enc += (enc.empty() ? "" : ",") + nx::parquet::to_string(e);
            std::printf("%zu\t%s\t%s\t%s\t%s\n", g, f->columns()[i].name.c_str(), nx::parquet::to_string(m.type).c_str(),
                        nx::parquet::to_string(m.codec).c_str(), enc.c_str());
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> files;
    bool meta = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--meta") == 0) meta = true;
        else files.emplace_back(argv[i]);
    }
    if (files.empty()) {
        std::fprintf(stderr, "usage: test-parquet_dump [--meta] FILE...\n");
        return 2;
    }
    try {
        if (meta) {
            for (const std::string& f : files) dump_meta(f.c_str());
            return 0;
        }
        nx::parquet::TableReader t(files, {}, nx::parquet::TableReader::Others::add);
        const std::vector<std::string>& names = t.names();
        while (t.next()) {
            rapidjson::StringBuffer buf;
            Writer w(buf);
            w.StartObject();
            for (size_t i = 0; i < names.size(); ++i) {
                w.Key(names[i].c_str());
                const nx::parquet::ColumnCursor* c = t.column(i);
                if (!c || c->is_null()) {
                    w.Null();
                    continue;
                }
                const auto& info = c->info();
                bool hex = !info.is_string && info.type != nx::parquet::PhysicalType::byte_array;
                if (info.is_list) {
                    w.StartArray();
                    for (size_t k = 0; k < c->list_size(); ++k) {
                        if (c->element_null(k)) w.Null();
                        else if (c->holds_integers()) integer(w, info, c->element_i64(k));
                        else if (c->holds_reals()) real(w, c->element_f64(k));
                        else text(w, c->element_str(k), hex);
                    }
                    w.EndArray();
                } else if (c->holds_integers()) {
                    integer(w, info, c->i64());
                } else if (c->holds_reals()) {
                    real(w, c->f64());
                } else {
                    text(w, c->str(), hex);
                }
            }
            w.EndObject();
            std::puts(buf.GetString());
        }
    } catch (const nx::Error& e) {
        std::fprintf(stderr, "test-parquet_dump: %s%s\n", nx::location_prefix(e.where(), e.line()).c_str(), e.what());
        return 1;
    }
    return 0;
}
