#include "common/process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/error.h"

extern char** environ;

namespace nx {

namespace {
constexpr size_t kKeepOutput = 64 * 1024;
}

std::string find_on_path(const std::string& name) {
    if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : std::string();
    const char* path = std::getenv("PATH");
    std::string p = path ? path : "/usr/bin:/bin";
    size_t start = 0;
    while (start <= p.size()) {
        size_t end = p.find(':', start);
        if (end == std::string::npos) end = p.size();
        // An empty PATH element means the current directory.
        std::string dir = end > start ? p.substr(start, end - start) : std::string(1, '.');
        std::string full = dir;
        full += '/';
        full += name;
        struct stat st {};
        if (stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(full.c_str(), X_OK) == 0) return full;
        start = end + 1;
    }
    return {};
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
    if (argv.empty()) throw Error("internal: empty command");
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) throw Error(std::string("cannot create pipe: ") + std::strerror(errno));

    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::vector<std::string> env_store;
    for (char** e = environ; *e; ++e) env_store.emplace_back(*e);
    for (const std::string& kv : env) env_store.push_back(kv);
    std::vector<char*> envp;
    for (std::string& kv : env_store) envp.push_back(kv.data());
    envp.push_back(nullptr);

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDERR_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    // The child must not inherit nx's ignored SIGPIPE.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &def);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0].c_str(), &fa, &attr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(pipefd[1]);
    if (rc != 0) {
        close(pipefd[0]);
        throw Error("cannot run " + argv[0] + ": " + std::strerror(rc));
    }
    ProcessResult result;
    char buf[8192];
    for (;;) {
        ssize_t n = read(pipefd[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        result.output.append(buf, static_cast<size_t>(n));
        if (result.output.size() > 2 * kKeepOutput) result.output.erase(0, result.output.size() - kKeepOutput);
    }
    close(pipefd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) result.status = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) result.status = 128 + WTERMSIG(status);
    return result;
}

std::string output_tail(const std::string& output, int lines) {
    std::vector<std::string> kept;
    size_t start = 0;
    while (start < output.size()) {
        size_t end = output.find('\n', start);
        if (end == std::string::npos) end = output.size();
        std::string line = output.substr(start, end - start);
        if (line.find_first_not_of(" \t\r") != std::string::npos) kept.push_back(line);
        start = end + 1;
    }
    std::string out;
    for (size_t i = kept.size() > static_cast<size_t>(lines) ? kept.size() - lines : 0; i < kept.size(); ++i) {
        if (!out.empty()) out += " | ";
        out += kept[i];
    }
    return out;
}

}  // namespace nx
