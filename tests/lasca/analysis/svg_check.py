#!/usr/bin/env python3
"""The SVG drawings of `lasca diagram` and `lasca analyse --svg` (docs/analysis.md).

    svg_check.py --lasca BIN --games PDN --out DIR parse
        draws a few diagrams and the evaluation graphs of the games into DIR and parses each
        with an XML parser (xml.etree): every file must be a well-formed <svg> document.
    svg_check.py --lasca BIN --games PDN --out DIR screenshot
        the same, then renders each drawing with headless Chromium into DIR/*.png, kept as the
        test's artifacts. Exits 77 (ctest's SKIP_RETURN_CODE) when chromium is not installed.
"""
import argparse
import pathlib
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

SKIP = 77
SVG = "{http://www.w3.org/2000/svg}svg"

# name -> arguments of `lasca diagram`
DIAGRAMS = {
    "start": ["b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w", "w", "0", "1"],
    "r7-line": ["b,b,Wbb,b/b,bb,-/b,-,b,-/-,bw,-/w,w,-,w/w,-,w/w,w,w,w", "w", "0", "6",
                "--last", "g5xe7"],
    "tall-flipped": ["-,-,-,-/-,-,-/-,-,bBw,-/-,Wwwwwwwwwwbbbbbbbbb,-/-,-,-,-/-,-,-/-,-,-,-",
                     "b", "--flip", "--last", "c3xe5"],
    "small": ["-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,-", "b", "--size", "32",
              "--no-coordinates", "--no-caption"],
}


def draw(lasca, games, out):
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for name, args in DIAGRAMS.items():
        svg = subprocess.run([lasca, "diagram", *args], check=True, capture_output=True,
                             text=True).stdout
        path = out / f"diagram-{name}.svg"
        path.write_text(svg)
        files.append(path)
    graphs = out / "graphs"
    subprocess.run([lasca, "analyse", games, "--nodes", "2000", "--svg", str(graphs), "--out",
                    str(out / "annotated.pdn")], check=True, capture_output=True)
    files += sorted(graphs.glob("*.svg"))
    return files


def parse(files):
    for path in files:
        root = ET.parse(path).getroot()  # raises on malformed XML
        if root.tag != SVG:
            sys.exit(f"{path}: the root element is {root.tag}, not svg")
        float(root.get("width"))
        float(root.get("height"))
        print(f"well-formed: {path}")


def screenshot(files):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("chromium is not installed: no screenshots (apt-get install chromium)")
        sys.exit(SKIP)
    for path in files:
        root = ET.parse(path).getroot()
        width, height = (int(float(root.get(k))) + 1 for k in ("width", "height"))
        png = path.with_suffix(".png")
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", f"--window-size={width},{height}",
                        f"--screenshot={png}", path.resolve().as_uri()],
                       check=True, capture_output=True, timeout=120)
        data = png.read_bytes()
        if not data.startswith(b"\x89PNG") or len(data) < 1000:
            sys.exit(f"{png}: not a screenshot")
        print(f"screenshot: {png}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lasca", required=True)
    parser.add_argument("--games", required=True)
    parser.add_argument("--out", required=True, type=pathlib.Path)
    parser.add_argument("mode", choices=["parse", "screenshot"])
    args = parser.parse_args()
    files = draw(args.lasca, args.games, args.out)
    parse(files)
    if args.mode == "screenshot":
        screenshot(files)


if __name__ == "__main__":
    main()
