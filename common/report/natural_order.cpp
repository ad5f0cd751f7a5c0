#include "common/report/natural_order.h"

namespace nx {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool natural_less(std::string_view a, std::string_view b) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            // Compare the digit runs as numbers of any length: leading zeros
            // skipped, then the longer run is the larger, then digit by digit.
            size_t ia = i, jb = j;
            while (ia < a.size() && a[ia] == '0') ++ia;
            while (jb < b.size() && b[jb] == '0') ++jb;
            size_t ea = ia, eb = jb;
            while (ea < a.size() && digit(a[ea])) ++ea;
            while (eb < b.size() && digit(b[eb])) ++eb;
            if (ea - ia != eb - jb) return ea - ia < eb - jb;
            int c = a.substr(ia, ea - ia).compare(b.substr(jb, eb - jb));
            if (c != 0) return c < 0;
            i = ea;
            j = eb;
            continue;
        }
        if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

}  // namespace nx
