// The parse limit for ingest benchmarks: RapidJSON's SAX reader alone over a
// file (null handler), timed.  Prints {"name":"sax_parse","value":seconds,...}.
#include <rapidjson/filereadstream.h>
#include <rapidjson/reader.h>

#include <chrono>
#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench-sax_parse FILE\n");
        return 2;
    }
    auto t0 = std::chrono::steady_clock::now();
    std::FILE* f = std::fopen(argv[1], "rb");
    if (!f) {
        std::perror(argv[1]);
        return 1;
    }
    static char buf[1 << 16];
    rapidjson::FileReadStream is(f, buf, sizeof buf);
    rapidjson::BaseReaderHandler<> handler;
    rapidjson::Reader reader;
    rapidjson::ParseResult ok = reader.Parse(is, handler);
    std::fclose(f);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!ok) {
        std::fprintf(stderr, "parse error at %zu\n", ok.Offset());
        return 1;
    }
    std::printf("{\"name\":\"sax_parse\",\"value\":%.6f,\"unit\":\"s\"}\n", s);
    return 0;
}
