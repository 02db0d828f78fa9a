// What the server-made pages (/games, /@/<name>) share of their language: the head and the nav
// of a page, and dates written the language's way (pages.date.* of the catalogues).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "web/i18n/i18n.h"

namespace web::pages {

// A day ("2026-12-06", "06/12/2026") and a time of day in UTC ("2026-12-06 20:49 UTC",
// "06/12/2026 20:49 UTC") of `millis` since the epoch.
std::string dayText(const i18n::Translator& words, std::int64_t millis);
std::string timeText(const i18n::Translator& words, std::int64_t millis);

// The start of a page up to its <main> (not included): <html lang>, the title, the header with
// `heading` (HTML), `subtitle` (HTML) and the nav of every page (`current`: the path of the
// page's own link, "" for none) with the language picker. Its scripts are pageEnd's.
std::string pageStart(const i18n::Translator& words, const std::string& title,
                      const std::string& heading, const std::string& subtitle,
                      std::string_view current);
// The end of a page after its </main>: the scripts of the language picker.
std::string pageEnd();

}  // namespace web::pages
