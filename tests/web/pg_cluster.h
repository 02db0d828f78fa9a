// A throwaway PostgreSQL cluster for a test program (scripts/pg-cluster.sh does the work):
// started in a folder of its own under the temporary directory, on a Unix socket in that folder
// only, stopped (immediate) and removed by stop() or the destructor, and by the script's watcher
// if the program dies first. Each test makes a database of its own (createDatabase), so that
// tests never share state. The program defines LASCA_PG_CLUSTER_SCRIPT (the script's path).
//
// PgClusterEnvironment is the one cluster of a GoogleTest program: added with
// ::testing::AddGlobalTestEnvironment, started before the first test and stopped after the last,
// even when tests fail. Without PostgreSQL's programs it fails with the script's message.
#pragma once

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace web::test {

class PgCluster {
  public:
    PgCluster() = default;
    PgCluster(const PgCluster&) = delete;
    PgCluster& operator=(const PgCluster&) = delete;
    ~PgCluster() { stop(); }

    // Starts the cluster in <temp>/lasca-pg-<pid>-<tag>; "" on success, else what went wrong
    // (the script's own words: PostgreSQL's programs missing, initdb or the server failing).
    // `settings`: NAME=VALUE words for its postgresql.conf, space-separated (fsync=off ...).
    std::string start(const std::string& tag, const std::string& settings = "") {
        dir_ = (std::filesystem::temp_directory_path() /
                ("lasca-pg-" + std::to_string(::getpid()) + "-" + tag))
                   .string();
        std::string output;
        const int status = run(
            "start '" + dir_ + "' --watch " + std::to_string(::getpid()) + " " + settings, output);
        if (status != 0) {
            const std::string why = output.empty() ? "scripts/pg-cluster.sh failed" : output;
            dir_.clear();
            return why;
        }
        return "";
    }

    // Stops the server (immediate) and removes its folder; nothing when it is not running.
    void stop() {
        if (dir_.empty()) return;
        std::string ignored;
        run("stop '" + dir_ + "'", ignored);
        dir_.clear();
    }

    bool running() const { return !dir_.empty(); }
    // The folder of its socket, and the URL of one of its databases.
    const std::string& socketFolder() const { return dir_; }
    std::string url(const std::string& database) const {
        return "postgresql:///" + database + "?host=" + dir_ + "&user=postgres";
    }

    // Makes database `name` (letters, digits and '_' only); its URL, or "" and `error` set.
    std::string createDatabase(const std::string& name, std::string& error) const {
        if (!running()) {
            error = "the PostgreSQL cluster is not running";
            return "";
        }
        PGconn* conn = PQconnectdb(url("postgres").c_str());
        std::unique_ptr<PGconn, decltype(&PQfinish)> owner(conn, &PQfinish);
        if (PQstatus(conn) != CONNECTION_OK) {
            error = PQerrorMessage(conn);
            return "";
        }
        PGresult* made = PQexec(conn, ("CREATE DATABASE " + name).c_str());
        const bool ok = PQresultStatus(made) == PGRES_COMMAND_OK;
        if (!ok) error = PQresultErrorMessage(made);
        PQclear(made);
        return ok ? url(name) : "";
    }

  private:
    // Runs the script with `arguments`; its exit status, its output (both streams) in `output`.
    static int run(const std::string& arguments, std::string& output) {
        const std::string command =
            std::string("'") + LASCA_PG_CLUSTER_SCRIPT + "' " + arguments + " 2>&1";
        FILE* pipe = ::popen(command.c_str(), "r");
        if (!pipe) return -1;
        char buffer[512];
        std::size_t got = 0;
        while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, got);
        while (!output.empty() && output.back() == '\n') output.pop_back();
        return ::pclose(pipe);
    }

    std::string dir_;
};

// The program's one cluster (fsync off: its tests check what the server is told, not the disk).
class PgClusterEnvironment : public ::testing::Environment {
  public:
    static PgCluster& cluster() {
        static PgCluster one;
        return one;
    }
    // What went wrong at start ("" when it runs).
    static std::string& startError() {
        static std::string error;
        return error;
    }
    void SetUp() override {
        startError() = cluster().start("tests", "fsync=off synchronous_commit=off");
        ASSERT_EQ(startError(), "") << "the PostgreSQL tests need a cluster of their own";
    }
    void TearDown() override { cluster().stop(); }
};

}  // namespace web::test
