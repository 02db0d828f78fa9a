#!/usr/bin/python3
"""Checks the page's catalogues (web/i18n/<lang>/<area>.json) against each other and against
every key the code uses; run by the build (target i18n_check), so a missing key fails the build.

  - every language has the same keys, each in the file of its area (the key's first part);
  - a message is a string, or an object of the plural forms "one" and "other";
  - a key's placeholders ({name}) are the same in every language and every form;
  - no pt-BR message is its English one left untranslated: one that is the same in both holds
    nothing but placeholders, symbols, single letters (a unit, a square, a rule's letter) and the
    words of SAME_IN_PORTUGUESE (names, and the words Brazilian players use as they are);
  - every key used is in every catalogue: t("key") and t('key') in web/*.js, data-i18n="key"
    and data-i18n-<attribute>="key" in web/*.html, tr("key") and every literal "server.<key>"
    (the texts the server says: messages::Say) in src/web and include/web (not in a // comment).

Usage: i18n_check.py [--root DIR]; prints one line per problem and exits 1, or exits 0.
"""
import argparse
import json
import pathlib
import re
import sys

LANGUAGES = ("en", "pt-BR")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# Words a pt-BR message may share with the English one: the games' and programs' names, notations,
# and the chess words Brazilian players use as they are ("valendo rating", "blitz").
SAME_IN_PORTUGUESE = {
    "lasca", "torneio", "lasca-web", "pdn", "lfen", "fen", "glicko-2", "ok",  # names
    "min",  # the unit
    "rating", "ratings", "bullet", "blitz", "links",  # chess and web words, as Brazilians say them
    "normal", "casual",  # Portuguese words spelled as the English
}
WORD = re.compile(r"[^\W\d_]{2,}(?:-[^\W_]+)*")
USES = (
    ("web", ("*.js",), re.compile(r"""\bt\(\s*["']([A-Za-z0-9_.-]+)["']""")),
    ("web", ("*.html",), re.compile(r"""data-i18n(?:-[a-z-]+)?="([A-Za-z0-9_.-]+)\"""")),
    ("src/web", ("*.cpp", "*.h"), re.compile(r"""\btr\(\s*"([A-Za-z0-9_.-]+)\"""")),
    ("include/web", ("*.h",), re.compile(r"""\btr\(\s*"([A-Za-z0-9_.-]+)\"""")),
    ("src/web", ("*.cpp", "*.h"), re.compile(r""""(server\.[A-Za-z0-9_.-]+)\"""")),
    ("include/web", ("*.h",), re.compile(r""""(server\.[A-Za-z0-9_.-]+)\"""")),
)


def placeholders(message):
    texts = message.values() if isinstance(message, dict) else [message]
    return [set(PLACEHOLDER.findall(t)) for t in texts]


def untranslated(english, portuguese):
    """True when the pt-BR message is the English one and holds a word Portuguese does not
    share with English."""
    if english != portuguese:
        return False
    texts = portuguese.values() if isinstance(portuguese, dict) else [portuguese]
    for text in texts:
        for word in WORD.findall(PLACEHOLDER.sub(" ", text)):
            if word.lower() not in SAME_IN_PORTUGUESE:
                return True
    return False


def load(root, problems):
    catalogues = {}
    for lang in LANGUAGES:
        messages = {}
        folder = root / "web" / "i18n" / lang
        if not folder.is_dir():
            problems.append(f"{folder}: no catalogue for {lang}")
            continue
        for path in sorted(folder.glob("*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as e:
                problems.append(f"{path}: {e}")
                continue
            if not isinstance(data, dict):
                problems.append(f"{path}: not an object of messages")
                continue
            for key, message in data.items():
                if key.split(".")[0] != path.stem:
                    problems.append(f"{path}: {key} belongs in {key.split('.')[0]}.json")
                if isinstance(message, dict):
                    if set(message) != {"one", "other"} or not all(isinstance(v, str) for v in message.values()):
                        problems.append(f"{path}: {key}: plural forms must be \"one\" and \"other\"")
                elif not isinstance(message, str):
                    problems.append(f"{path}: {key}: not a string")
                if key in messages:
                    problems.append(f"{path}: {key} twice")
                messages[key] = message
        catalogues[lang] = messages
    return catalogues


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=str(pathlib.Path(__file__).resolve().parent.parent))
    root = pathlib.Path(parser.parse_args().root)
    problems = []
    catalogues = load(root, problems)
    first = catalogues.get(LANGUAGES[0], {})
    for lang, messages in catalogues.items():
        for key in sorted(set(first) ^ set(messages)):
            where = LANGUAGES[0] if key not in first else lang
            problems.append(f"web/i18n/{where}: no message {key}")
        for key in sorted(set(first) & set(messages)):
            forms = placeholders(first[key]) + placeholders(messages[key])
            if any(f != forms[0] for f in forms):
                problems.append(f"web/i18n/{lang}: {key}: placeholders differ from {LANGUAGES[0]}'s")
            if lang == "pt-BR" and untranslated(first[key], messages[key]):
                problems.append(f"web/i18n/{lang}: {key}: still the English text")
    for folder, patterns, use in USES:
        for pattern in patterns:
            for path in sorted((root / folder).rglob(pattern)):
                if "i18n" in path.parts and path.suffix == ".json":
                    continue
                text = path.read_text(encoding="utf-8", errors="replace")
                for match in use.finditer(text):
                    key = match.group(1)
                    start = text.rfind("\n", 0, match.start()) + 1
                    if "//" in text[start:match.start()]:
                        continue  # a comment's example
                    line = text.count("\n", 0, match.start()) + 1
                    for lang, messages in catalogues.items():
                        if key not in messages:
                            problems.append(f"{path.relative_to(root)}:{line}: {key} is not in web/i18n/{lang}")
    for p in problems:
        print(f"i18n: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
