// The PostgreSQL build of the store's tests (web_store_pg_tests): one throwaway cluster for the
// program, started before the first test and stopped after the last (tests/web/pg_cluster.h).
#include "../pg_cluster.h"

namespace {

[[maybe_unused]] const ::testing::Environment* const kCluster =
    ::testing::AddGlobalTestEnvironment(new web::test::PgClusterEnvironment);

}  // namespace
