// Software pipelining of stores on the Sync engine's instruction stream.
//
// On NC-v3 and later a store of data VectorE or TensorE produced is
// triggered by the Sync engine (Scheduler::dma_trigger), which also triggers
// the loads and runs its stream in order.  Issued where the lowering computes
// it, such a store makes the Sync engine wait for its result before it
// triggers the next loads, loads the kernel's buffers have room for.  The
// compiler orders the Sync stream so those loads go first: a store is issued
// after the next `lag` groups of loads (lag: the spare generations of the
// input buffers, the loads that may run ahead of the compute), or earlier
// when the lowering needs its completion (a buffer the store frees is about
// to be reused).  Where the producer triggers its own stores (NC-v2, and
// ScalarE or GpSimdE everywhere), a store is issued at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>

#include "common/model/scheduler.h"

namespace nx::model {

class StorePipeline {
public:
    // Stores of data `producer` made; `lag` groups of loads may go before one.
    StorePipeline(Scheduler& s, int producer, int lag);

    // Queues a store (its trigger is set here); `stored` receives its
    // completion once it is issued.  Returns the store's ticket.
    uint64_t store(Transfer t, std::function<void(Time)> stored = {});
    // The lowering issued one group of loads: stores `lag` groups old go out.
    void loads_issued();
    // Issues the oldest stores until at most `n` wait (before reusing one of
    // `n + 1` buffers that stores free, in the order they were stored).
    void keep_at_most(size_t n);
    // Issues every store up to and including `ticket` (0: none).
    void issue_through(uint64_t ticket);
    // Issues every waiting store; returns the latest completion of all.
    Time finish();

    // Holds the waiting stores' results, which the Sync engine waits for.
    void hold(Floor& f) const;
    bool deferred() const { return lag_ > 0; }

private:
    struct Waiting {
        Transfer t;
        std::function<void(Time)> stored;
        uint64_t ticket;
        int64_t group;  // load groups issued when it was stored
    };
    void issue_oldest();

    Scheduler& s_;
    int trigger_;
    int lag_;
    std::deque<Waiting> waiting_;
    uint64_t tickets_ = 0;
    int64_t groups_ = 0;
    Time end_ = 0;
};

}  // namespace nx::model
