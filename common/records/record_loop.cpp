// for_each_record (record_loop.h).
#include "common/records/record_loop.h"

#include "common/io/error.h"
#include "common/records/jsonl.h"

namespace nx {

void for_each_record(InputSource& in, bool keep_going, const RecordFunction& each, ErrorKind kind) {
    JsonlReader reader(in);
    std::string text;
    while (reader.next_line(text)) {
        // A fresh document per record: a reused one keeps every record's
        // memory in its pool until the loop ends.
        rapidjson::Document record;
        try {
            parse_json_object(record, text, in.name(), reader.line());
            each(record, text, reader.line());
        } catch (const Error& e) {
            std::string where = e.where().empty() ? in.name() : e.where();
            int64_t line = e.line() ? e.line() : reader.line();
            if (!keep_going) throw Error(e.what(), where, line);
            error_counts().add(kind, e.what(), where, line);
        }
    }
}

}  // namespace nx
