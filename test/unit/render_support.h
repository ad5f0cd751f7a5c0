// The unit tests' view of a report: a Document rendered as a tool would
// print it, into a string.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/io/output.h"
#include "common/report/document.h"
#include "common/report/html_report.h"

namespace nx::test {

// format: "html", "markdown", "terminal" (text with a terminal's styling) or
// "text".
inline std::string rendered(const Document& d, std::string_view format) {
    char* data = nullptr;
    size_t size = 0;
    std::FILE* f = open_memstream(&data, &size);
    {
        Output out(f, "memory");
        if (format == "html") render_html(d, out);
        else if (format == "markdown") render_markdown(d, out);
        else render_text(d, out, format == "terminal");
        out.flush();
    }
    std::fclose(f);
    std::string s(data, size);
    std::free(data);
    return s;
}

}  // namespace nx::test
