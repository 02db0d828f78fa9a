// Random and garbled messages fed to a Lasca table: no crash, no exception, every reply a JSON
// object with a type, and a message answered by an error changes nothing.
#include <gtest/gtest.h>

#include <random>

#include "web/messages/messages.h"
#include "web/web_test_util.h"

namespace web::messages {

using lasca_tables::LascaTable;

namespace {

const std::vector<std::string> kSeeds = {
    R"({"type":"move","ply":0,"move":"c3-d4"})",
    R"({"type":"view","ply":0})",
    R"({"type":"analyse","on":true,"multipv":3})",
    R"({"type":"preview","ply":0,"moves":["c3-d4","e5-f4"]})",
    R"({"type":"lfen","lfen":"b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 0 1"})",
    R"({"type":"new","engine":"black","level":2})",
    R"({"type":"takeback"})",
    R"({"type":"pdn.import","pdn":"[FEN \"b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w\"]\n\n1. c3-d4 *"})",
    R"({"type":"pdn.export"})",
    R"({"type":"settings","engine":"none"})",
    R"({"type":"annotate","nodes":500})",
    R"({"type":"annotate","cancel":true})",
    R"({"type":"retry"})",
    R"({"type":"join","gameId":"0123456789abcdef"})",
    R"({"type":"move","ply":1,"move":"e5xc3"})",
    R"({"type":"move","ply":0,"move":"a3-b4"})",
    R"({"type":"line","moves":["c3-d4"]})",
    R"({"type":"line","moves":["a3-b4","c5xa3"]})",
    R"({"type":"promote","moves":["a3-b4"]})",
    R"({"type":"delete","moves":["c3-d4"]})",
    R"({"type":"pdn.import","pdn":"1. c3-d4 (1. a3-b4 {x} c5xa3 (1... b6-a5)) 1... e5xc3 *"})",
    R"({"type":"pdn.import","pdn":"1. c3-d4 (1. e3-f4 b6-a5) 1... e5xc3 2. d2xb4 (2. b2xd4) *"})",
};

std::string mutate(std::string text, std::mt19937_64& rng) {
    const std::string alphabet = "{}[]\":,0123456789-.eE truefalsnul\\abcdxyz\x01\xff";
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < edits; ++i) {
        if (text.empty()) text.push_back('{');
        const auto at = static_cast<std::size_t>(rng() % text.size());
        const char c = alphabet[static_cast<std::size_t>(rng() % alphabet.size())];
        switch (rng() % 3) {
            case 0:
                text[at] = c;
                break;
            case 1:
                text.insert(at, 1, c);
                break;
            default:
                text.erase(at, 1 + rng() % 3);
                break;
        }
    }
    return text;
}

std::string randomBytes(std::mt19937_64& rng) {
    std::string text(static_cast<std::size_t>(rng() % 200), ' ');
    for (auto& c : text) c = static_cast<char>(rng() % 256);
    return text;
}

TEST(MessagesFuzz, GarbledMessagesNeverCrashAndErrorsChangeNothing) {
    auto log = std::make_shared<test::FakeEngineLog>();
    LascaTable table(test::fakeFactory(log));
    table.hello();
    std::mt19937_64 rng(20261201);
    int errors = 0, withVariations = 0;
    for (int i = 0; i < 20000; ++i) {
        const std::string text =
            rng() % 5 == 0 ? randomBytes(rng) : mutate(kSeeds[rng() % kSeeds.size()], rng);
        const auto moves = table.moves();
        const auto lfen = table.position().toLfen();
        const auto view = table.viewPly();
        const auto lines = log->lines.size();
        std::vector<Json> replies;
        ASSERT_NO_THROW(replies = table.handleText(text)) << text;
        ASSERT_FALSE(replies.empty()) << text;
        for (const auto& r : replies) {
            ASSERT_TRUE(r.is_object());
            ASSERT_TRUE(r["type"].is_string());
            ASSERT_NO_THROW((void)r.dump(-1, ' ', false, Json::error_handler_t::replace));
        }
        if (replies.size() == 1 && replies[0]["type"] == "error") {
            ++errors;
            ASSERT_EQ(table.moves(), moves) << text;
            ASSERT_EQ(table.position().toLfen(), lfen) << text;
            ASSERT_EQ(table.viewPly(), view) << text;
            ASSERT_EQ(log->lines.size(), lines) << text;
        }
        // The game and its variations stay a legal tree holding the line shown: what the store
        // keeps of it is restored by a new table.
        if (!table.stored().tree.empty()) ++withVariations;
        if (i % 100 == 0) {
            LascaTable copy(test::fakeFactory(std::make_shared<test::FakeEngineLog>()));
            const auto restored = copy.restore(table.stored());
            ASSERT_TRUE(restored.ok()) << restored.error() << " after " << text;
            ASSERT_EQ(copy.stored(), table.stored());
        }
        // Engine replies, garbled too, for whatever search is pending.
        if (rng() % 4 == 0) {
            ASSERT_NO_THROW(
                table.onEngineLine(mutate("info depth 3 multipv 1 score cp 10 nodes 5 "
                                          "nps 9 pv c3-d4 e5-f4",
                                          rng)));
            ASSERT_NO_THROW(table.onEngineLine(mutate("bestmove c3-d4", rng)));
        }
    }
    EXPECT_GT(errors, 1000);
    EXPECT_GT(withVariations, 100) << "the fuzz reaches games with variations";
}

}  // namespace
}  // namespace web::messages
