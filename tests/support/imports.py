"""What a test file imports, read from the files (nothing is imported): every module it names,
following the tests.support modules it uses. The layer tests use it to keep the core's tests
free of the app and the fast inner loop free of servers and browsers."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def reaches(path: Path, seen: set | None = None) -> set[str]:
    """Every module `path` imports (dotted, and `from a import b` also as a.b), anywhere in
    it, with those of the tests.support modules it imports, recursively."""
    seen = set() if seen is None else seen
    if path in seen:
        return set()
    seen.add(path)
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            found.add(name)
            if name.startswith("tests.support."):
                support = ROOT.joinpath(*name.split(".")).with_suffix(".py")
                if support.is_file():
                    found |= reaches(support, seen)
    return found


def top_level(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}
