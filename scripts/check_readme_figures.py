"""Check that no figure was lost when the README was split into docs/ pages.

Usage: python scripts/check_readme_figures.py OLD_README.md
Extracts every number with a decimal point or a thousands separator from OLD_README.md and
checks that each occurs in README.md, docs/**/*.md (the record under docs/record/ too) or
BENCHMARKS.md.
"""
import re
import sys
from pathlib import Path

NUM = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w,]?\d)|(?<![\w.])\d+\.\d+(?![\d.]?\d)")

root = Path(__file__).resolve().parent.parent
old = Path(sys.argv[1]).read_text(encoding="utf8")
new = "\n".join(p.read_text(encoding="utf8") for p in
                [root / "README.md", root / "BENCHMARKS.md", *sorted((root / "docs").rglob("*.md"))])
found = sorted(set(NUM.findall(old)))
new_nums = set(NUM.findall(new))
missing = [n for n in found if n not in new_nums]
print(f"{len(found)} distinct figures in {sys.argv[1]}; {len(found) - len(missing)} found, "
      f"{len(missing)} missing")
for n in missing:
    print("MISSING", n)
sys.exit(1 if missing else 0)
