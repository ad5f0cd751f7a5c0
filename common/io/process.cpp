#include "common/io/process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/io/error.h"

extern char** environ;

namespace nx {

namespace {

constexpr size_t kKeepOutput = 64 * 1024;

// Starts argv[0] (found on PATH) with the given fds as its stdin/stdout/
// stderr (-1: inherit) and our environment plus `env`.  The child gets the
// default SIGPIPE disposition back (nx ignores it).
pid_t spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env, int in_fd, int out_fd,
            int err_fd, bool stdin_null, bool own_group = false) {
    if (argv.empty()) throw Error("internal: empty command");
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::vector<std::string> store;
    auto overridden = [&](const char* entry) {
        for (const std::string& kv : env) {
            size_t eq = kv.find('=');
            if (eq != std::string::npos && std::strncmp(entry, kv.c_str(), eq + 1) == 0) return true;
        }
        return false;
    };
    for (char** e = environ; *e; ++e)
        if (!overridden(*e)) store.emplace_back(*e);
    for (const std::string& kv : env) store.push_back(kv);
    std::vector<char*> envp;
    for (std::string& kv : store) envp.push_back(kv.data());
    envp.push_back(nullptr);

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (in_fd >= 0) posix_spawn_file_actions_adddup2(&fa, in_fd, STDIN_FILENO);
    else if (stdin_null) posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    if (out_fd >= 0) posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
    if (err_fd >= 0) posix_spawn_file_actions_adddup2(&fa, err_fd, STDERR_FILENO);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &def);
    short flags = POSIX_SPAWN_SETSIGDEF;
    if (own_group) {
        posix_spawnattr_setpgroup(&attr, 0);
        flags |= POSIX_SPAWN_SETPGROUP;
    }
    posix_spawnattr_setflags(&attr, flags);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0].c_str(), &fa, &attr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) throw Error("cannot run " + argv[0] + ": " + std::strerror(rc));
    return pid;
}

int decode_status(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

int wait_status(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return decode_status(status);
}

}  // namespace

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
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) throw Error(std::string("cannot create pipe: ") + std::strerror(errno));
    pid_t pid;
    try {
        pid = spawn(argv, env, -1, pipefd[1], pipefd[1], true);
    } catch (...) {
        close(pipefd[0]);
        close(pipefd[1]);
        throw;
    }
    close(pipefd[1]);
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
    result.status = wait_status(pid);
    return result;
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
    int to_child[2], from_child[2];
    if (pipe2(to_child, O_CLOEXEC) != 0) throw Error(std::string("cannot create pipe: ") + std::strerror(errno));
    if (pipe2(from_child, O_CLOEXEC) != 0) {
        close(to_child[0]);
        close(to_child[1]);
        throw Error(std::string("cannot create pipe: ") + std::strerror(errno));
    }
    try {
        pid_ = spawn(argv, env, to_child[0], from_child[1], -1, false);
    } catch (...) {
        for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) close(fd);
        throw;
    }
    close(to_child[0]);
    close(from_child[1]);
    in_ = to_child[1];
    out_ = from_child[0];
}

ChildProcess::~ChildProcess() {
    if (in_ >= 0) close(in_);
    if (out_ >= 0) close(out_);
    if (pid_ > 0 && !waited_) {
        ::kill(pid_, SIGTERM);
        wait_status(pid_);
    }
}

void ChildProcess::write_stdin(const std::string& text) {
    size_t done = 0;
    while (done < text.size()) {
        ssize_t n = ::write(in_, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw Error(std::string("the child process stopped reading: ") + std::strerror(errno));
        done += static_cast<size_t>(n);
    }
}

void ChildProcess::close_stdin() {
    if (in_ >= 0) close(in_);
    in_ = -1;
}

bool ChildProcess::read_line(std::string& line) {
    for (;;) {
        size_t nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            return true;
        }
        if (eof_) {
            if (buffer_.empty()) return false;
            line.swap(buffer_);
            buffer_.clear();
            return true;
        }
        char buf[8192];
        ssize_t n = out_ >= 0 ? ::read(out_, buf, sizeof buf) : 0;
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) eof_ = true;
        else buffer_.append(buf, static_cast<size_t>(n));
    }
}

void ChildProcess::kill() {
    if (pid_ > 0 && !waited_) ::kill(pid_, SIGTERM);
    // Closing our end lets a child blocked on a full pipe fail its write.
    if (out_ >= 0) close(out_);
    out_ = -1;
    eof_ = true;
}

int ChildProcess::wait() {
    if (waited_) return status_;
    close_stdin();
    status_ = wait_status(pid_);
    waited_ = true;
    return status_;
}

BackgroundProcess::BackgroundProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/nx-viewer-XXXXXX.log";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    int fd = mkstemps(name.data(), 4);
    if (fd < 0) throw Error(std::string("cannot create a temporary file: ") + std::strerror(errno));
    log_ = name.data();
    try {
        pid_ = spawn(argv, env, -1, fd, fd, true, true);
    } catch (...) {
        close(fd);
        unlink(log_.c_str());
        throw;
    }
    close(fd);
}

BackgroundProcess::~BackgroundProcess() {
    stop();
    unlink(log_.c_str());
}

std::optional<int> BackgroundProcess::poll() {
    if (done_) return status_;
    int status = 0;
    pid_t r;
    while ((r = waitpid(pid_, &status, WNOHANG)) < 0 && errno == EINTR) {
    }
    if (r != pid_) return std::nullopt;
    done_ = true;
    status_ = decode_status(status);
    // What it started may outlive it: end the group as well.
    ::kill(-pid_, SIGKILL);
    return status_;
}

void BackgroundProcess::stop(int grace_ms) {
    if (pid_ <= 0) return;
    if (!done_) {
        ::kill(-pid_, SIGTERM);
        for (int waited = 0; waited < grace_ms && !poll(); waited += 20) usleep(20 * 1000);
        if (!done_) {
            ::kill(-pid_, SIGKILL);
            status_ = wait_status(pid_);
            done_ = true;
        }
    }
    ::kill(-pid_, SIGKILL);  // a child of the group that ignored SIGTERM
}

std::string BackgroundProcess::output_tail(int lines) const {
    int fd = open(log_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return {};
    std::string text;
    struct stat st {};
    if (fstat(fd, &st) == 0) {
        off_t from = st.st_size > static_cast<off_t>(kKeepOutput) ? st.st_size - static_cast<off_t>(kKeepOutput) : 0;
        text.resize(static_cast<size_t>(st.st_size - from));
        ssize_t n = pread(fd, text.data(), text.size(), from);
        text.resize(n > 0 ? static_cast<size_t>(n) : 0);
    }
    close(fd);
    return nx::output_tail(text, lines);
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
