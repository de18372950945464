"""The core stays UI-free: data flows pages -> ui -> hopfield_core, never back."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.imports import reaches, top_level

CORE = Path(__file__).resolve().parents[2] / "hopfield_core"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_core_imports_neither_streamlit_nor_plotly_nor_ui():
    files = list(CORE.rglob("*.py"))
    assert files
    for path in files:
        bad = imported_modules(path) & {"streamlit", "plotly", "ui", "pages"}
        assert not bad, f"{path.name} imports {bad}"


def module_level_imports(path: Path) -> set[str]:
    """The modules a file imports when it is imported: every import but those inside a function
    (a class body, an `if` or a `try` at module level runs at import, so those count)."""
    tree = ast.parse(path.read_text())
    names, todo = set(), list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
        todo.extend(ast.iter_child_nodes(node))
    return names


# torch inside its functions only: importing it costs nothing (the app starts without torch)
LAZY_TORCH = {"reference.py"}


def test_torch_stays_out_of_the_hopfield_variants():
    for path in CORE.glob("*.py"):  # the Energy Transformer subpackage may use torch
        if path.name in LAZY_TORCH:
            assert "torch" in imported_modules(path), path.name  # else it needs no allowance
            assert "torch" not in module_level_imports(path), path.name
        else:
            assert "torch" not in imported_modules(path), path.name


@pytest.mark.parametrize("source, at_import", [
    ("import torch\n", True),
    ("import torch.nn.functional as F\n", True),
    ("from torch import nn\n", True),
    ("try:\n    import torch\nexcept ImportError:\n    torch = None\n", True),
    ("class A:\n    import torch\n", True),
    ("def f():\n    import torch\n", False),
    ("class A:\n    def f(self):\n        from torch import nn\n", False),
    ("import numpy\n", False),
])
def test_the_lazy_torch_rule_tells_module_level_imports_from_those_in_functions(
        tmp_path, source, at_import):
    path = tmp_path / "reference.py"
    path.write_text(source)
    assert ("torch" in module_level_imports(path)) is at_import


def test_importing_the_reference_module_does_not_import_torch():
    out = subprocess.run([sys.executable, "-c", "import sys, hopfield_core.reference; "
                          "print('torch' in sys.modules)"], cwd=CORE.parent, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "False"


PAGES = CORE.parent / "app_pages"
PAGE_LINES = 80  # a page is layout: its blocks, prose and caches live in ui/pages/<page>/


def page_problems(path: Path) -> list[str]:
    """What makes a page file more than layout: an import of the core's maths (a page reaches
    the core only through ui/), or more than PAGE_LINES lines."""
    problems = []
    if "hopfield_core" in imported_modules(path):
        problems.append(f"{path.name} imports hopfield_core")
    lines = len(path.read_text().splitlines())
    if lines > PAGE_LINES:
        problems.append(f"{path.name} has {lines} lines (at most {PAGE_LINES})")
    return problems


def test_pages_are_layout_only_no_core_import_and_short():
    files = sorted(PAGES.glob("*.py"))
    assert len(files) >= 11
    problems = [p for path in files for p in page_problems(path)]
    assert not problems, problems


@pytest.mark.parametrize("source, bad", [
    ("from hopfield_core import analysis\n", True),
    ("from hopfield_core.et.masks import mean_fill\n", True),
    ("import hopfield_core.capacity\n", True),
    ("def main():\n    from hopfield_core import ModernHopfield\n", True),
    ("from ui import sidebar\nfrom ui.pages.modern import sections\n", False),
    ("x = 1\n" * PAGE_LINES, False),
    ("x = 1\n" * (PAGE_LINES + 1), True),
])
def test_the_page_rule_finds_core_imports_and_long_pages(tmp_path, source, bad):
    path = tmp_path / "page.py"
    path.write_text(source)
    assert bool(page_problems(path)) is bad


CORE_LINES = 300  # a core file holds one idea a reader can take in at once


def test_no_core_file_is_over_300_lines():
    lines = {str(p.relative_to(CORE)): len(p.read_text().splitlines()) for p in CORE.rglob("*.py")}
    long = {name: n for name, n in lines.items() if n > CORE_LINES}
    assert not long, long



TESTS = CORE.parent / "tests"
APP_ONLY = {"streamlit", "plotly", "ui", "pandas"}  # the app's, not the core's


def test_the_cores_tests_need_neither_the_app_nor_its_libraries():
    """tests/core runs where only the core's own dependencies are installed (with pytest and
    hypothesis): nothing it imports, itself or through tests/support, is the app's."""
    files = sorted((TESTS / "core").glob("*.py"))
    assert len(files) > 30
    bad = {p.name: top_level(reaches(p)) & APP_ONLY for p in files
           if top_level(reaches(p)) & APP_ONLY}
    assert not bad, bad


def test_the_reach_follows_the_support_modules(tmp_path):
    test = tmp_path / "test_x.py"
    test.write_text("from tests.support.apptest import open_app\n")
    assert "streamlit" in top_level(reaches(test))
    test.write_text("from tests.support import samples\n")
    assert "hopfield_core" in top_level(reaches(test))
    assert not top_level(reaches(test)) & APP_ONLY


ROOT = CORE.parent


def helpers_from_tests(path: Path) -> set[str]:
    """The tests.* modules a file imports that are not in tests/support."""
    return {m for m in reaches(path) if m.startswith("tests.") and not m.startswith("tests.support")}


def test_tests_and_benchmarks_take_shared_helpers_from_tests_support_only():
    files = [p for p in [*(ROOT / "tests").rglob("*.py"), *(ROOT / "benchmarks").glob("*.py")]
             if "vendor" not in p.parts and "support" not in p.relative_to(ROOT).parts]
    assert len(files) > 100
    found = {str(p.relative_to(ROOT)): helpers_from_tests(p) for p in files
             if helpers_from_tests(p)}
    assert not found, found


def test_the_helper_rule_finds_a_test_importing_a_test(tmp_path):
    test = tmp_path / "test_x.py"
    test.write_text("from tests.app.test_modern_page import HOX\nfrom tests.support import samples\n")
    assert helpers_from_tests(test) == {"tests.app.test_modern_page",
                                        "tests.app.test_modern_page.HOX"}
