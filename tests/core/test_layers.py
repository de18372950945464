"""The core stays UI-free: data flows pages -> ui -> hopfield_core, never back."""
import ast
from pathlib import Path

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


def test_torch_stays_out_of_the_hopfield_variants():
    for path in CORE.glob("*.py"):  # the Energy Transformer subpackage may use torch
        assert "torch" not in imported_modules(path), path.name
