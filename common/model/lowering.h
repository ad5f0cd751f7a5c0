// Lowerings as coroutines, so that the two physical cores of a logical core
// can each run their half of a sharded kernel in one timeline.
//
// A lowering places its instructions in program order and, between blocks,
// announces its floor (scheduler.h): `co_await s.floor(t)` suspends it there.
// The driver (run_lowerings) resumes, each time, the lane whose floor is the
// least, so both cores' halves advance together in time and the scheduler's
// floor - the least of the lanes' - lets events out in order with memory
// bounded by the work in flight, as for one core.  A lowering awaits another
// (`co_await lower_matmul(...)`) to run it inside its own, and the lanes meet
// at `co_await s.core_barrier(t)`.  One lowering on one lane runs the same
// way, its floors applied as it announces them.
#pragma once

#include <coroutine>
#include <exception>
#include <utility>
#include <vector>

#include "common/model/cost_model.h"

namespace nx::model {

class Scheduler;

// A lowering's coroutine: started by its driver or by the lowering that
// awaits it; its value is the lowering's completion time.
class Lowering {
public:
    struct promise_type {
        Time value = 0;
        std::coroutine_handle<> continuation;
        std::exception_ptr error;

        Lowering get_return_object() { return Lowering(std::coroutine_handle<promise_type>::from_promise(*this)); }
        std::suspend_always initial_suspend() noexcept { return {}; }
        // Back to the awaiting lowering, or to the driver.
        struct Final {
            bool await_ready() noexcept { return false; }
            std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
                std::coroutine_handle<> next = h.promise().continuation;
                return next ? next : std::noop_coroutine();
            }
            void await_resume() noexcept {}
        };
        Final final_suspend() noexcept { return {}; }
        void return_value(Time t) { value = t; }
        void unhandled_exception() { error = std::current_exception(); }
    };
    using Handle = std::coroutine_handle<promise_type>;

    Lowering(Lowering&& other) noexcept : h_(std::exchange(other.h_, {})) {}
    Lowering& operator=(Lowering&&) = delete;
    Lowering(const Lowering&) = delete;
    ~Lowering() {
        if (h_) h_.destroy();
    }

    // Awaiting a lowering runs it to its end inside the awaiting one.
    struct Awaiter {
        Handle h;
        bool await_ready() const noexcept { return false; }
        std::coroutine_handle<> await_suspend(std::coroutine_handle<> outer) noexcept {
            h.promise().continuation = outer;
            return h;
        }
        Time await_resume() const {
            if (h.promise().error) std::rethrow_exception(h.promise().error);
            return h.promise().value;
        }
    };
    Awaiter operator co_await() && noexcept { return Awaiter{h_}; }

    Handle handle() const { return h_; }

private:
    explicit Lowering(Handle h) : h_(h) {}
    Handle h_;
};

// Runs the lowerings to their end, the i-th on physical core i of `s` (as
// many as the scheduler has lanes); a lane that ends drains its core when a
// kernel is open.  Returns each one's value.  Rethrows what a lowering threw.
std::vector<Time> run_lowerings(Scheduler& s, std::vector<Lowering>& per_core);
// One lowering on the first physical core.
Time run_lowering(Scheduler& s, Lowering lowering);

}  // namespace nx::model
