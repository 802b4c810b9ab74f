// The one text form of every JSON document starscope writes: bytes that are not UTF-8 (a
// Latin-1 "café" from a shell, a codelet's raw name) become U+FFFD instead of an exception.

#include "common/json_text.hpp"

#include <gtest/gtest.h>
#include <string>

namespace {

using starscope::jsonString;
using starscope::jsonText;

const std::string kLatin1Cafe = "caf\xe9";       // é in Latin-1: not UTF-8
const std::string kReplaced = "caf\xef\xbf\xbd"; // U+FFFD in UTF-8

TEST(JsonText, ALatin1ValueIsWrittenWithTheReplacementCharacter) {
    const nlohmann::json doc = {{"argv", {"prog", kLatin1Cafe}}};
    std::string text;
    ASSERT_NO_THROW(text = jsonText(doc, 2));
    const auto back = nlohmann::json::parse(text, nullptr, false);
    ASSERT_FALSE(back.is_discarded()) << text;
    EXPECT_EQ(back.at("argv").at(1), kReplaced);
}

TEST(JsonText, ALatin1KeyIsReplacedToo) {
    const nlohmann::json doc = {{kLatin1Cafe, 1}};
    const auto back = nlohmann::json::parse(jsonText(doc), nullptr, false);
    ASSERT_FALSE(back.is_discarded());
    EXPECT_EQ(back.at(kReplaced), 1);
}

TEST(JsonText, CutAndStraySequencesEachBecomeOneReplacement) {
    // A four-byte sequence cut after three bytes, then a lone continuation byte.
    const auto back = nlohmann::json::parse(jsonText(nlohmann::json("a\xf0\x9f\x98"
                                                                    "b\x80"
                                                                    "c")),
                                            nullptr, false);
    ASSERT_FALSE(back.is_discarded());
    EXPECT_EQ(back.get<std::string>(), "a\xef\xbf\xbd"
                                       "b\xef\xbf\xbd"
                                       "c");
}

TEST(JsonText, ValidUtf8AndEscapesAreKept) {
    const std::string text = "caf\xc3\xa9 \xf0\x9f\x98\x80 \"q\" \\ \n\t\x01";
    EXPECT_EQ(jsonText(nlohmann::json(text)),
              "\"caf\xc3\xa9 \xf0\x9f\x98\x80 \\\"q\\\" \\\\ \\n\\t\\u0001\"");
    EXPECT_EQ(nlohmann::json::parse(jsonString(text)).get<std::string>(), text);
}

// The Chrome export's names: plain ones as they are, the others escaped by the same dump.
TEST(JsonText, AStringLiteralIsTheDumpOfTheString) {
    for (const std::string text : {"sample_spin", "", "a \"quoted\" \\ name", "tab\there",
                                   "del\x7f", "caf\xc3\xa9", "caf\xe9"}) {
        EXPECT_EQ(jsonString(text), jsonText(nlohmann::json(text))) << text;
    }
    EXPECT_EQ(jsonString("sample_spin"), "\"sample_spin\"");
}

TEST(JsonText, AStringLiteralOfLatin1BytesParses) {
    const auto literal = jsonString(kLatin1Cafe);
    EXPECT_EQ(literal, "\"" + kReplaced + "\"");
    EXPECT_EQ(nlohmann::json::parse("{\"name\":" + literal + "}").at("name"), kReplaced);
}

} // namespace
