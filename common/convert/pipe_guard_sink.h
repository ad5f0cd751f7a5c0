// A sink writing to stdout that steps aside when the downstream pipe closes.
//
// `nx-convert --db s.db --to events big.json | head -1`: the reader of stdout
// went away, but the database load must still complete.  PipeGuardSink
// forwards to the wrapped sink until it throws BrokenPipe, then drops
// everything that sink would have written so the other sinks (the database)
// go on.  Without a database the tool keeps ending quietly on BrokenPipe.
#pragma once

#include "common/io/error.h"
#include "common/profile/profile_sink.h"

namespace nx {

class PipeGuardSink : public ProfileSink {
public:
    explicit PipeGuardSink(ProfileSink& inner) : inner_(inner) {}

    void begin_profile(const ProfileInfo& info) override {
        guarded([&] { inner_.begin_profile(info); });
    }
    void event(const Event& e) override {
        guarded([&] { inner_.event(e); });
    }
    void flow(const Flow& f) override {
        guarded([&] { inner_.flow(f); });
    }
    void end_profile(const ProfileInfo& info, const ProfileSummary& summary) override {
        guarded([&] { inner_.end_profile(info, summary); });
    }
    void abort_profile() override {
        guarded([&] { inner_.abort_profile(); });
    }
    void finish() override {
        guarded([&] { inner_.finish(); });
    }
    bool pipe_closed() const { return closed_; }

private:
    template <class F>
    void guarded(F&& f) {
        if (closed_) return;
        try {
            f();
        } catch (const BrokenPipe&) {
            closed_ = true;
        }
    }
    ProfileSink& inner_;
    bool closed_ = false;
};

}  // namespace nx
