// The attempt limits of the accounts (AttemptLimits, include/web/server/server.h), with the time
// handed in: a key's tries at once, the wait said in whole seconds, the limit lifted after its
// time, keys apart from each other, and the keys kept bounded.
#include <gtest/gtest.h>

#include <string>

#include "web/server/server.h"

namespace web::server {
namespace {

TEST(AttemptLimits, TriesThenAWaitThenLiftedAfterItsTime) {
    AttemptLimits limits(5, 60);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(limits.tryNow("127.0.0.2", 100.0), 0) << i;
    // Five tries at once: the sixth waits a whole try's time (whole seconds, rounded up).
    EXPECT_NEAR(limits.tryNow("127.0.0.2", 100.0), 60, 1);
    EXPECT_NEAR(limits.tryNow("127.0.0.2", 130.0), 30, 1);
    EXPECT_EQ(limits.tryNow("127.0.0.3", 130.0), 0);  // another key is served
    EXPECT_EQ(limits.tryNow("127.0.0.2", 161.0), 0);  // lifted after its time: one more try
    EXPECT_NEAR(limits.tryNow("127.0.0.2", 161.0), 59, 1);
    EXPECT_EQ(limits.tryNow("127.0.0.2", 161.0 + 5 * 60 + 1), 0);  // then a whole burst again
    for (int i = 0; i < 4; ++i) EXPECT_EQ(limits.tryNow("127.0.0.2", 462.0), 0);
    EXPECT_GT(limits.tryNow("127.0.0.2", 462.0), 0);
}

TEST(AttemptLimits, TheKeysKeptAreBounded) {
    AttemptLimits limits(1, 10);
    for (std::size_t i = 0; i < AttemptLimits::kMaxKeys; ++i)
        ASSERT_EQ(limits.tryNow("k" + std::to_string(i), 0.0), 0);
    EXPECT_EQ(limits.keys(), AttemptLimits::kMaxKeys);
    // Full: a new key is refused while every bucket is still in use...
    EXPECT_NEAR(limits.tryNow("new", 1.0), 10, 1);
    EXPECT_EQ(limits.keys(), AttemptLimits::kMaxKeys);
    // ... and the full buckets are forgotten once their time has passed.
    EXPECT_EQ(limits.tryNow("new", 11.0), 0);
    EXPECT_EQ(limits.keys(), 1u);
}

}  // namespace
}  // namespace web::server
