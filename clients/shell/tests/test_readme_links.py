"""The relative links of README.md, clients' READMEs and the examples' READMEs lead to files of
the repository: the guides README.md points to are DocC articles under Sources/, and a moved or
renamed article must take its links along."""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Tuple

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
READMES = sorted([REPO_ROOT / "README.md", REPO_ROOT / "clients" / "README.md",
                  *REPO_ROOT.glob("clients/*/README.md"), *REPO_ROOT.glob("Examples/*/README.md")])


def relative_links(markdown: Path) -> List[Tuple[int, str]]:
    """(line, target) of each inline link outside fenced blocks that is not a URL or an anchor."""
    text = re.sub(r"^```.*?^```", lambda block: "\n" * block.group(0).count("\n"),
                  markdown.read_text(encoding="utf-8"), flags=re.S | re.M)
    found = []
    for match in re.finditer(r"\]\(([^)\s]+)\)", text):
        target = match.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue
        found.append((text.count("\n", 0, match.start()) + 1, target))
    return found


def test_the_readme_links_to_its_guides() -> None:
    targets = [target for _, target in relative_links(REPO_ROOT / "README.md")]
    assert len([t for t in targets if ".docc/" in t]) >= 8, targets


@pytest.mark.parametrize("markdown", READMES, ids=lambda path: str(path.relative_to(REPO_ROOT)))
def test_relative_links_lead_to_files_of_the_repository(markdown: Path) -> None:
    broken = [f"{markdown.relative_to(REPO_ROOT)}:{line}: {target}"
              for line, target in relative_links(markdown)
              if not (markdown.parent / target.split("#")[0]).exists()]
    assert not broken, "\n".join(broken)
