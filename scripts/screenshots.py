"""Copy the browser tests' page screenshots into docs/screenshots/ (top of each page, 1000 px wide).

Run by ``bash scripts/screenshots.sh`` after the browser tests have written tests/browser/output/*.png.
"""
from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from app_support.registry import pages  # noqa: E402  (the page list: app_support/registry.py)

SOURCE = ROOT / "tests" / "browser" / "output"
TARGET = ROOT / "docs" / "screenshots"
PAGES = tuple(entry.stem for entry in pages())      # every page of the app: its browser test saves <stem>.png
WIDTH, TOP = 1000, 2000          # output width; page height kept (pixels of the 1400-wide screenshot)


def main() -> None:
    TARGET.mkdir(parents=True, exist_ok=True)
    missing = []
    for name in PAGES:
        source = SOURCE / f"{name}.png"
        if not source.exists():
            missing.append(name)
            continue
        image = Image.open(source).convert("RGB")
        image = image.crop((0, 0, image.width, min(image.height, TOP)))
        image = image.resize((WIDTH, round(image.height * WIDTH / image.width)), Image.LANCZOS)
        image.save(TARGET / f"{name}.png", optimize=True)
        print(f"docs/screenshots/{name}.png")
    if missing:
        raise SystemExit(f"no screenshot for: {', '.join(missing)} (run the browser tests first)")


if __name__ == "__main__":
    main()
