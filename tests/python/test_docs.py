"""docs/python.md's examples, run: each ```python block is run as a program (in a scratch folder
holding `build/lasca`, the engine ctest names in LASCA_ENGINE) and what it prints must be the
```text block that follows it in the guide. Run by ctest as python.docs (python/CMakeLists.txt),
which sets PYTHONPATH, LASCA_ENGINE and DOCS_PYTHON_MD."""
import os
import re
import subprocess
import sys

import pytest

GUIDE = os.environ.get("DOCS_PYTHON_MD",
                       os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md"))
ENGINE = os.environ.get("LASCA_ENGINE")


def examples():
    """(first line number, code, printed output) of each ```python block and its ```text."""
    with open(GUIDE, encoding="utf-8") as f:
        text = f.read()
    blocks = [(text[:m.start()].count("\n") + 1, m.group(1), m.group(2))
              for m in re.finditer(r"^```(\w*)\n(.*?)^```$", text, re.M | re.S)]
    found = []
    for i, (line, kind, body) in enumerate(blocks):
        if kind != "python":
            continue
        following = blocks[i + 1] if i + 1 < len(blocks) else None
        assert following is not None and following[1] == "text", \
            f"docs/python.md:{line}: a python example without the ```text block it prints"
        found.append((line, body, following[2]))
    return found


def test_the_guide_has_examples():
    assert len(examples()) >= 4


@pytest.mark.skipif(not ENGINE, reason="LASCA_ENGINE not set (ctest sets it)")
@pytest.mark.parametrize("line,code,printed", examples(), ids=lambda v: str(v)[:12])
def test_example_prints_what_the_guide_shows(tmp_path, line, code, printed):
    (tmp_path / "build").mkdir()
    os.symlink(ENGINE, tmp_path / "build" / "lasca")
    path = os.pathsep.join(os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(
        os.pathsep) if p)
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300, env=dict(os.environ, PYTHONPATH=path))
    assert run.returncode == 0, f"docs/python.md:{line}: {run.stderr}"
    assert run.stdout.rstrip("\n") == printed.rstrip("\n"), f"docs/python.md:{line}"
