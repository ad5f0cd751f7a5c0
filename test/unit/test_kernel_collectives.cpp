// The collective operation of a communication kernel
// (common/profile/kernel_collectives.h): which collective its name or args
// say, its size from the element count and dtype, its process group and
// sequence number; other kernels are none.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "common/profile/kernel_collectives.h"

namespace {

// A kernel event and the strings it views, kept alive with it.
struct Kernel {
    std::string name, args;
    nx::EventType type = nx::EventType::kernel;
    nx::Event event() const {
        nx::Event e;
        e.type = type;
        e.name = name;
        e.ts_ns = 1000;
        e.dur_ns = 500;
        e.args_json = args;
        return e;
    }
};

std::optional<nx::CollectiveOp> op_of(const Kernel& k) { return nx::collective_of_kernel(k.event()); }

TEST(KernelCollectives, TheCollectiveIsTheWordAfterTheLibrarysPrefix) {
    EXPECT_EQ(nx::collective_of_kernel_name("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"),
              "AllReduce");
    EXPECT_EQ(nx::collective_of_kernel_name("ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)"),
              "AllGather");
    EXPECT_EQ(nx::collective_of_kernel_name("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"), "SendRecv");
    EXPECT_EQ(nx::collective_of_kernel_name("nccl"), "nccl");
}

TEST(KernelCollectives, ArgsGiveTheCollectiveSizeGroupAndSequence) {
    std::string args = R"({"stream":20,"correlation":9,"Collective name":"all_reduce","In msg nelems":1000,)"
                       R"("dtype":"BFloat16","Process Group Name":"3","Seq":17})";
    std::optional<nx::CollectiveOp> op = op_of({"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", args});
    ASSERT_TRUE(op.has_value());
    EXPECT_EQ(op->name, "nccl:allreduce");
    EXPECT_EQ(op->bytes, 2000);
    EXPECT_EQ(op->group, "3");
    EXPECT_EQ(op->seq, 17);
    EXPECT_EQ(op->start_ns, 1000);
    EXPECT_EQ(op->dur_ns, 500);
}

TEST(KernelCollectives, WithoutArgsTheNameSaysTheCollectiveAndNothingElseIsSaid) {
    std::optional<nx::CollectiveOp> op = op_of({"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", ""});
    ASSERT_TRUE(op.has_value());
    EXPECT_EQ(op->name, "nccl:allreduce");
    EXPECT_EQ(op->bytes, -1);
    EXPECT_EQ(op->group, "");
    EXPECT_EQ(op->seq, -1);
}

TEST(KernelCollectives, AnUnknownDtypeOrANegativeSequenceIsNotSaid) {
    std::optional<nx::CollectiveOp> op = op_of({"ncclDevKernel_Broadcast_RING_LL(x)", R"({"In msg nelems":8,"dtype":"Mystery","Seq":-1})"});
    ASSERT_TRUE(op.has_value());
    EXPECT_EQ(op->bytes, -1);
    EXPECT_EQ(op->seq, -1);
}

TEST(KernelCollectives, OneCclKernelsAreCclCollectives) {
    std::optional<nx::CollectiveOp> op = op_of({"oneccl_allreduce_kernel", "{}"});
    ASSERT_TRUE(op.has_value());
    EXPECT_EQ(op->name, "ccl:allreduce");
}

TEST(KernelCollectives, ComputationKernelsAndHostEventsAreNotCollectives) {
    EXPECT_FALSE(op_of({"sm80_xmma_gemm_bf16bf16_f32", "{}"}).has_value());
    EXPECT_FALSE(op_of({"ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)", "{}", nx::EventType::runtime}).has_value());
}

TEST(KernelCollectives, MalformedArgsLeaveTheNamesCollective) {
    std::optional<nx::CollectiveOp> op = op_of({"ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(x)", R"({"Seq": 3, "dtype")"});
    ASSERT_TRUE(op.has_value());
    EXPECT_EQ(op->name, "nccl:reducescatter");
    EXPECT_EQ(op->seq, -1);
}

}  // namespace
