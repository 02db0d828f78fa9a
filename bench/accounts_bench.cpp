// The cost of accounts at the chosen Argon2id limits (web/accounts/accounts.h): one password
// hashed (a sign-up, a password change) and one checked (a sign-in), on one thread and on two
// at once (lasca-web hashes on a pool of two threads: AccountApi::kThreads). The items per
// second of the two-thread rows are sign-ins per second of the machine.
#include <benchmark/benchmark.h>

#include "web/accounts/accounts.h"

namespace {

void BM_HashPassword(benchmark::State& state) {
    for (auto _ : state) {
        auto hash = web::accounts::hashPassword("correct horse battery");
        benchmark::DoNotOptimize(hash);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HashPassword)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_HashPassword)->Unit(benchmark::kMillisecond)->UseRealTime()->Threads(2);

void BM_SignInCheck(benchmark::State& state) {
    static const std::string hash = web::accounts::hashPassword("correct horse battery").value();
    for (auto _ : state) {
        const bool right = web::accounts::verifyPassword(hash, "correct horse battery");
        benchmark::DoNotOptimize(right);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SignInCheck)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SignInCheck)->Unit(benchmark::kMillisecond)->UseRealTime()->Threads(2);

}  // namespace
