"""docs/python.md's examples, run: each ```python block is run as a program (in a scratch folder
holding `build/lasca`, the engine ctest names in LASCA_ENGINE) and what it prints must be the
```text block that follows it in the guide. Run by ctest as python.docs (python/CMakeLists.txt),
which sets PYTHONPATH, LASCA_ENGINE and DOCS_PYTHON_MD.

When the engine's play or scores change (a new network), the guide's printed blocks are made
again by running this file as a program, with the same environment:
    LASCA_ENGINE=$PWD/build/lasca PYTHONPATH=build/python /usr/bin/python3 tests/python/test_docs.py --update
which replaces each ```text block after a ```python block by what the example prints now."""
import os
import re
import subprocess
import sys
import tempfile

import pytest

GUIDE = os.environ.get("DOCS_PYTHON_MD",
                       os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md"))
ENGINE = os.environ.get("LASCA_ENGINE")


def example_spans(text):
    """(first line number, code, printed output, span of the printed output in text) of each
    ```python block and the ```text block after it."""
    blocks = [(text[:m.start()].count("\n") + 1, m.group(1), m.group(2), m.span(2))
              for m in re.finditer(r"^```(\w*)\n(.*?)^```$", text, re.M | re.S)]
    found = []
    for i, (line, kind, body, _) in enumerate(blocks):
        if kind != "python":
            continue
        following = blocks[i + 1] if i + 1 < len(blocks) else None
        assert following is not None and following[1] == "text", \
            f"docs/python.md:{line}: a python example without the ```text block it prints"
        found.append((line, body, following[2], following[3]))
    return found


def examples():
    """(first line number, code, printed output) of each ```python block and its ```text."""
    with open(GUIDE, encoding="utf-8") as f:
        return [(line, code, printed) for line, code, printed, _ in example_spans(f.read())]


def run_example(code, folder):
    """What an example prints, run in `folder` with build/lasca there; (exit code, out, err)."""
    os.makedirs(os.path.join(folder, "build"), exist_ok=True)
    os.symlink(ENGINE, os.path.join(folder, "build", "lasca"))
    path = os.pathsep.join(os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(
        os.pathsep) if p)
    run = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True,
                         text=True, timeout=300, env=dict(os.environ, PYTHONPATH=path))
    return run.returncode, run.stdout, run.stderr


def test_the_guide_has_examples():
    assert len(examples()) >= 4


@pytest.mark.skipif(not ENGINE, reason="LASCA_ENGINE not set (ctest sets it)")
@pytest.mark.parametrize("line,code,printed", examples(), ids=lambda v: str(v)[:12])
def test_example_prints_what_the_guide_shows(tmp_path, line, code, printed):
    code_, out, err = run_example(code, str(tmp_path))
    assert code_ == 0, f"docs/python.md:{line}: {err}"
    assert out.rstrip("\n") == printed.rstrip("\n"), f"docs/python.md:{line}"


def update_guide():
    """Writes each example's output into the guide's ```text block after it; 1 on a failure."""
    with open(GUIDE, encoding="utf-8") as f:
        text = f.read()
    changed = 0
    for line, code, printed, (begin, end) in reversed(example_spans(text)):
        with tempfile.TemporaryDirectory() as folder:
            code_, out, err = run_example(code, folder)
        if code_ != 0:
            print(f"docs/python.md:{line}: the example failed: {err}", file=sys.stderr)
            return 1
        out = out.rstrip("\n") + "\n"
        if out != printed:
            text = text[:begin] + out + text[end:]
            changed += 1
    with open(GUIDE, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"{GUIDE}: {changed} printed block(s) changed")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"] or not ENGINE:
        print("usage: LASCA_ENGINE=ENGINE PYTHONPATH=build/python "
              "/usr/bin/python3 tests/python/test_docs.py --update", file=sys.stderr)
        sys.exit(2)
    sys.exit(update_guide())
