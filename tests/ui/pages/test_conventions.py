"""The conventions every page keeps (docs/architecture.md, "Conventions"): its widget and chart
keys carry the page's name, and its controls come back as one frozen dataclass."""
import ast
from pathlib import Path

import pytest

from tests.support.apptest import open_app
from ui import pages

ROOT = Path(__file__).resolve().parents[3]
# the containers shared code makes for a page, named <job>_<page>...: the row of controls, the
# formulas (their CSS selects them by the job)
JOBS = ("controls_", "formulas_")
WITH_SETTINGS = [p.file for p in pages.PAGES if not p.default]


def main_keys(at) -> set[str]:
    """The keys of every widget and chart in the main area (the sidebar is shared)."""
    out = set()

    def walk(node):
        key = getattr(node, "key", None)
        if isinstance(key, str):
            out.add(key)
        if getattr(node, "type", None) == "plotly_chart":
            out.add(node.proto.id.rsplit("-", 1)[-1])
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at.main)
    return out


def foreign(keys: set[str], page: str) -> list[str]:
    """The keys that do not carry the page's name as the rule says."""
    return sorted(k for k in keys if not k.startswith(f"{page}_")
                  and not any(k.startswith(f"{job}{page}") for job in JOBS))


def test_the_key_rule_finds_another_prefix():
    assert foreign({"modern_beta", "controls_modern", "formulas_modern"}, "modern") == []
    assert foreign({"mh_sweep", "controls_mh", "dense_n"}, "modern") == \
        ["controls_mh", "dense_n", "mh_sweep"]


@pytest.mark.parametrize("page", WITH_SETTINGS)
def test_every_key_on_a_page_carries_its_name(page):
    keys = main_keys(open_app(page))
    assert keys and not foreign(keys, page), foreign(keys, page)


def controls_functions(path: Path):
    """(function name, its return annotation, the module's frozen dataclasses) of every
    function whose name ends in "controls"."""
    tree = ast.parse(path.read_text())
    frozen = {n.name for n in tree.body if isinstance(n, ast.ClassDef) and any(
        isinstance(d, ast.Call) and ast.unparse(d.func) == "dataclass"
        and any(k.arg == "frozen" and getattr(k.value, "value", False) for k in d.keywords)
        for d in n.decorator_list)}
    return [(n.name, ast.unparse(n.returns) if n.returns else None, frozen)
            for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.endswith("controls")]


def test_controls_come_back_as_a_frozen_dataclass():
    found = {f"{p.relative_to(ROOT)}:{name}": (returns, frozen)
             for p in sorted((ROOT / "ui" / "pages").rglob("*.py"))
             for name, returns, frozen in controls_functions(p)}
    assert len(found) >= 8, found
    wrong = {k: v[0] for k, v in found.items() if v[0] not in v[1]}
    assert not wrong, wrong


def test_the_controls_rule_finds_a_tuple(tmp_path):
    path = tmp_path / "sections.py"
    path.write_text("from dataclasses import dataclass\n\n@dataclass(frozen=True)\nclass C:\n"
                    "    x: int\n\ndef controls() -> tuple[int, int]:\n    return 1, 2\n\n"
                    "def more_controls() -> C:\n    return C(1)\n")
    (_, bad, frozen), (_, good, _) = controls_functions(path)
    assert bad not in frozen and good in frozen

