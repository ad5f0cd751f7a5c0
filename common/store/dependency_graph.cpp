#include "common/store/dependency_graph.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <queue>

#include "common/io/error.h"
#include "common/io/number_text.h"
#include "common/io/temp_path.h"
#include "common/profile/rule_inputs.h"

namespace nx {

namespace {

std::string_view table_of(int64_t kind) { return kind == 1 ? "dma_block" : "instruction"; }

// A blocked Bloom filter: 2^19 words of 64 bits (4 MiB); a key sets 3 bits
// of one word, so a lookup is one cache miss, not three.  At 2.5M named ids
// (a profile of 5M instructions) about 1 other id in 100 gets through, and
// costs one row on disk, not a wrong answer.
constexpr uint64_t kFilterWords = uint64_t{1} << 19;

uint64_t mix(uint64_t x) {  // splitmix64's finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

struct Probe {
    size_t word;
    uint64_t bits;
};

Probe probe(int kind, int64_t id) {
    uint64_t h = mix(static_cast<uint64_t>(id) * 4 + static_cast<uint64_t>(kind));
    return {static_cast<size_t>(h & (kFilterWords - 1)),
            (uint64_t{1} << (h >> 40 & 63)) | (uint64_t{1} << (h >> 46 & 63)) | (uint64_t{1} << (h >> 52 & 63))};
}

// The scratch database: its own file, no journal, no fsync (it is thrown
// away with the process), and a page cache of 8 MiB that bounds its sorter.
std::unique_ptr<SqliteDb> open_scratch() {
    auto db = std::make_unique<SqliteDb>("", SqliteDb::Mode::create);
    db->exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; "
             "PRAGMA cache_size = -8192; PRAGMA temp_store = FILE; PRAGMA threads = 0;");
    return db;
}

}  // namespace

DependencyCollector::DependencyCollector() = default;

// On the first Flow row: a profile without one (most of them) costs no
// scratch file and no filter.
void DependencyCollector::open() {
    named_bits_.assign(kFilterWords, 0);
    db_ = open_scratch();
    db_->exec(
        "CREATE TABLE flow(in_kind INTEGER, in_id INTEGER, out_kind INTEGER, out_id INTEGER, gap INTEGER);"
        "CREATE TABLE node(kind INTEGER, id INTEGER, start INTEGER, dur INTEGER, where_s INTEGER, name_s INTEGER,"
        " PRIMARY KEY (kind, id)) WITHOUT ROWID;"
        "BEGIN;");
    add_flow_.emplace(*db_, "INSERT INTO flow VALUES (?, ?, ?, ?, ?)");
    // The last row of a node given twice wins, as the source's last word.
    add_node_.emplace(*db_, "INSERT OR REPLACE INTO node VALUES (?, ?, ?, ?, ?, ?)");
}

DependencyCollector::~DependencyCollector() = default;

DependencyCollector::Kind DependencyCollector::kind_of(std::string_view flow_table) {
    std::string_view t = dependency_table(flow_table);
    return t == "instruction" ? instruction_node : t == "dma_block" ? block_node : no_node;
}

void DependencyCollector::name(Kind kind, int64_t id) {
    if (kind == no_node) return;
    if (kind == instruction_node) wants_instructions_ = true;
    Probe p = probe(kind, id);
    named_bits_[p.word] |= p.bits;
}

bool DependencyCollector::may_be_named(Kind kind, int64_t id) const {
    if (named_bits_.empty()) return false;  // no Flow row yet
    Probe p = probe(kind, id);
    return (named_bits_[p.word] & p.bits) == p.bits;
}

void DependencyCollector::flow_row(std::string_view json) {
    flow(json_field(json, "in_table"), parse_int64(json_field(json, "in_id")), json_field(json, "out_table"),
         parse_int64(json_field(json, "out_id")), parse_int64(json_field(json, "gap_time")));
}

void DependencyCollector::flow(std::string_view in_table, std::optional<int64_t> in_id, std::string_view out_table,
                               std::optional<int64_t> out_id, std::optional<int64_t> gap) {
    if (!db_) open();
    ++flow_rows_;
    if (!in_id || !out_id) {
        ++bad_rows_;
        return;
    }
    Kind in = kind_of(in_table), out = kind_of(out_table);
    name(in, *in_id);
    name(out, *out_id);
    add_flow_->bind(1, static_cast<int64_t>(in)).bind(2, *in_id).bind(3, static_cast<int64_t>(out)).bind(4, *out_id);
    if (gap && *gap >= 0) add_flow_->bind(5, *gap);
    else add_flow_->bind_null(5);
    add_flow_->run();
}

void DependencyCollector::add_node(Kind kind, int64_t id, int64_t start, int64_t dur, std::string_view where,
                                   std::string_view name) {
    add_node_->bind(1, static_cast<int64_t>(kind)).bind(2, id).bind(3, start).bind(4, std::max<int64_t>(dur, 0));
    add_node_->bind(5, static_cast<int64_t>(strings_->intern(where)))
        .bind(6, static_cast<int64_t>(strings_->intern(name)));
    add_node_->run();
}

void DependencyCollector::instruction(const Event& e) {
    if (e.type != EventType::instruction) return;
    if (std::optional<int64_t> id = parse_int64(json_field(e.args_json, "id"))) instruction(e, *id);
}

void DependencyCollector::instruction(const Event& e, int64_t id) {
    if (e.type != EventType::instruction || !may_be_named(instruction_node, id)) return;
    add_node(instruction_node, id, e.ts_ns, e.dur_ns,
             e.engine != Engine::none ? to_string(e.engine) : std::string_view(e.track),
             !e.opcode.empty() ? e.opcode : e.name);
}

void DependencyCollector::dma_block_row(std::string_view json) {
    dma_block(parse_int64(json_field(json, "id")), parse_int64(json_field(json, "start_ts")), parse_int64(json_field(json, "end_ts")),
              parse_int64(json_field(json, "duration_ns")), json_field(json, "queue_name"), json_field(json, "variable"));
}

void DependencyCollector::dma_block(std::optional<int64_t> id, std::optional<int64_t> start, std::optional<int64_t> end,
                                    std::optional<int64_t> duration, std::string_view queue, std::string_view variable) {
    if (!id || !may_be_named(block_node, *id) || !start) return;
    int64_t dur = 0;
    if (end) dur = *end - *start;
    else if (duration) dur = *duration;
    else return;
    add_node(block_node, *id, *start, dur, queue.empty() ? std::string_view("dma") : queue, variable);
}

DependencyGraph DependencyCollector::finish() {
    add_flow_.reset();
    add_node_.reset();
    DependencyGraph g;
    if (!db_) return g;  // no Flow row: no dependency data
    // The nodes, numbered in start order (then table, then id): pos's rowid
    // is the number, as INSERT ... ORDER BY hands them out.  Each resolved
    // row becomes an edge between two numbers, its gap filled in, and the
    // edges are numbered by source (the sweep reads them in that order); one
    // whose target does not come later stays, counted, and the sweep passes
    // it by.
    db_->exec(
        "CREATE TABLE pos(start INTEGER, dur INTEGER, kind INTEGER, id INTEGER, where_s INTEGER, name_s INTEGER);"
        "INSERT INTO pos SELECT start, dur, kind, id, where_s, name_s FROM node ORDER BY start, kind, id;"
        "DROP TABLE node;"
        "CREATE INDEX pos_by_key ON pos(kind, id, start, dur);"
        "CREATE TABLE edge(src INTEGER, dst INTEGER, gap INTEGER);"
        "INSERT INTO edge SELECT a.rowid, b.rowid, COALESCE(f.gap, max(0, b.start - (a.start + a.dur)))"
        " FROM flow f JOIN pos a ON a.kind = f.in_kind AND a.id = f.in_id"
        " JOIN pos b ON b.kind = f.out_kind AND b.id = f.out_id ORDER BY a.rowid, b.rowid;"
        "DROP TABLE flow; DROP INDEX pos_by_key; COMMIT;"
        // The sweeps read in order: a 1 MiB cache does.  A report keeps one
        // graph per profile until it ends, each with the cache it is left.
        "PRAGMA cache_size = -1024; PRAGMA shrink_memory;");
    SqliteStmt counts(*db_, "SELECT (SELECT count(*) FROM pos), count(*), coalesce(sum(dst <= src), 0) FROM edge");
    counts.step();
    g.nodes_ = counts.column_int(0);
    int64_t resolved = counts.column_int(1);
    g.backward = counts.column_int(2);
    counts.reset();
    g.edge_rows_ = resolved;
    g.flow_rows = flow_rows_;
    g.unresolved = bad_rows_ + (flow_rows_ - bad_rows_ - resolved);
    g.edges_ = resolved - g.backward;
    g.strings_ = strings_;
    g.db_ = std::move(db_);
    return g;
}

DependencyGraph::DependencyGraph() : strings_(std::make_shared<DepStrings>()) {}
DependencyGraph::DependencyGraph(DependencyGraph&&) noexcept = default;
DependencyGraph& DependencyGraph::operator=(DependencyGraph&&) noexcept = default;
DependencyGraph::~DependencyGraph() = default;

DepNode DependencyGraph::node(int64_t index) const {
    DepNode n;
    if (!db_ || index < 0 || index >= nodes_) return n;
    if (!read_node_) read_node_ = std::make_unique<SqliteStmt>(*db_, "SELECT start, dur, kind, id, where_s, name_s FROM pos WHERE rowid = ?");
    SqliteStmt& q = *read_node_;
    q.bind(1, index + 1);
    if (!q.step()) {
        q.reset();
        return n;
    }
    n.start_ns = q.column_int(0);
    n.dur_ns = q.column_int(1);
    n.table = table_of(q.column_int(2));
    n.id = q.column_int(3);
    n.where = strings_->at(static_cast<uint32_t>(q.column_int(4)));
    n.name = strings_->at(static_cast<uint32_t>(q.column_int(5)));
    q.reset();
    return n;
}

// The first row (0-based) of `table`, numbered in the order of `column`,
// whose value is at least `value` (`rows` when none): a binary search by
// rowid, as both tables are numbered in that order.
int64_t DependencyGraph::first_at_least(const char* table, const char* column, int64_t rows, int64_t value) const {
    SqliteStmt q(*db_, std::string("SELECT ") + column + " FROM " + table + " WHERE rowid = ?");
    int64_t lo = 0, hi = rows;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        q.bind(1, mid + 1);
        int64_t at = q.step() ? q.column_int(0) : INT64_MAX;
        q.reset();
        if (at < value) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

namespace {

// What the sweep writes for each node it passes: the node its longest
// chain comes from (-1: none) and the gap between the two.
struct Predecessor {
    int64_t node = -1;
    int64_t gap = 0;
};

// In $TMPDIR, as SQLite's scratch file is; removed also when a signal stops the tool.
class SpillFile {
public:
    SpillFile() : path_("-critical-path"), f_(std::fopen(path_.path().c_str(), "w+b")) {
        if (!f_) throw Error("critical path: cannot open a temporary file", path_.path());
    }
    SpillFile(const SpillFile&) = delete;
    SpillFile& operator=(const SpillFile&) = delete;
    ~SpillFile() { std::fclose(f_); }
    void append(const Predecessor& p) {
        if (std::fwrite(&p, sizeof p, 1, f_) != 1) throw Error("critical path: cannot write its temporary file", path_.path());
    }
    Predecessor at(int64_t k) {
        Predecessor p;
        if (fseeko(f_, static_cast<off_t>(k * static_cast<int64_t>(sizeof p)), SEEK_SET) != 0 ||
            std::fread(&p, sizeof p, 1, f_) != 1)
            throw Error("critical path: cannot read its temporary file", path_.path());
        return p;
    }

private:
    TempPath path_;
    std::FILE* f_;
};

// An edge left by a node the sweep has passed, into one it has not reached.
struct OpenEdge {
    int64_t dst, src, len, gap;  // len: the source's chain, plus the gap
    bool operator>(const OpenEdge& o) const { return dst != o.dst ? dst > o.dst : src > o.src; }
};

}  // namespace

CriticalPath critical_path(const DependencyGraph& g, int64_t from_ns, int64_t to_ns) {
    CriticalPath out;
    out.strings = g.strings_;
    if (!g.db_ || g.nodes_ == 0) return out;
    int64_t lo = g.first_at_least("pos", "start", g.nodes_, from_ns), hi = g.first_at_least("pos", "start", g.nodes_, to_ns);
    if (lo >= hi) return out;
    // A step's time clipped at the range's end, as regions clip events.
    auto clipped = [&](int64_t start, int64_t dur) { return start + dur > to_ns ? to_ns - start : dur; };
    SqliteStmt nodes(*g.db_, "SELECT start, dur FROM pos WHERE rowid > ? AND rowid <= ? ORDER BY rowid");
    nodes.bind(1, lo).bind(2, hi);
    SqliteStmt edges(*g.db_, "SELECT src - 1, dst - 1, gap FROM edge WHERE rowid > ? ORDER BY rowid");
    edges.bind(1, g.first_at_least("edge", "src", g.edge_rows_, lo + 1));
    bool more_edges = edges.step();
    std::priority_queue<OpenEdge, std::vector<OpenEdge>, std::greater<>> open;
    SpillFile spill;
    int64_t end = -1, end_len = 0;
    // The longest chain ending at each node, in start order (edges go forward).
    for (int64_t v = lo; nodes.step(); ++v) {
        Predecessor pred;
        int64_t in = -1;
        for (; !open.empty() && open.top().dst <= v; open.pop())  // by source: ties keep the earliest
            if (open.top().dst == v && open.top().len > in) {
                in = open.top().len;
                pred = {open.top().src, open.top().gap};
            }
        int64_t len = std::max<int64_t>(in, 0) + clipped(nodes.column_int(0), nodes.column_int(1));
        spill.append(pred);
        // Only nodes with an edge count (a lone node is no dependency).
        if (pred.node >= 0 && (end < 0 || len > end_len)) {
            end = v;
            end_len = len;
        }
        for (; more_edges && edges.column_int(0) == v; more_edges = edges.step())
            if (edges.column_int(1) > v && edges.column_int(1) < hi) open.push({edges.column_int(1), v, len + edges.column_int(2), edges.column_int(2)});
    }
    if (end < 0) return out;
    // The chain, walked back from its end: (node, gap from the one before).
    std::vector<Predecessor> chain;
    for (int64_t v = end; v >= 0;) {
        Predecessor p = spill.at(v - lo);
        chain.push_back({v, p.gap});
        v = p.node;
    }
    std::reverse(chain.begin(), chain.end());
    std::map<std::string_view, int64_t> per_where;
    int64_t cum = 0;
    for (size_t k = 0; k < chain.size(); ++k) {
        CriticalStep s;
        s.node = g.node(chain[k].node);
        if (k > 0) cum += chain[k].gap;
        s.dur_ns = clipped(s.node.start_ns, s.node.dur_ns);
        cum += s.dur_ns;
        s.cumulative_ns = cum;
        if (k + 1 < chain.size()) s.gap_to_next_ns = chain[k + 1].gap;
        out.work_ns += s.dur_ns;
        per_where[s.node.where] += s.dur_ns;
        out.steps.push_back(s);
    }
    out.length_ns = cum;
    for (const auto& [w, ns] : per_where)
        if (ns > out.where_ns) {
            out.where = std::string(w);
            out.where_ns = ns;
        }
    return out;
}

}  // namespace nx
