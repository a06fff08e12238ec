"""Print every title of a corpus that holds `$`, raw and as papershelf shows it (run by hand).

    python bench/latex_titles.py /work/shared/corpus/ml-abstracts.jsonl

Not a test: a person reads the output to check each conversion (no excerpt is committed).
"""

from __future__ import annotations

import json
import sys

from papershelf.storage.names.derive import derive_name
from papershelf.storage.text.latex import display_text
from papershelf.storage.text.titles import display_title


def main(path: str) -> None:
    count = 0
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            title = record.get("title") or ""
            if "$" not in title and "\\" not in title:
                continue
            count += 1
            shown = display_title(title)
            name = derive_name(record.get("abstract", ""), title)
            print(f"{count:3}  {title}\n     {shown}\n     name: {name}")
            leftover = [c for c in ("$", "\\", "{", "}") if c in shown]
            if leftover or display_text(title).styles:
                print(f"     !! {' '.join(leftover)} styles={display_text(title).styles}")
    print(f"{count} titles")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/corpus/ml-abstracts.jsonl")
