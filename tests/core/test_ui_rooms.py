"""ui/ is a house of rooms, one folder per job, and imports run one way through it: a room
imports only the rooms below it (its own included), and nothing imports a page's folder but
that page (its script in app_pages/ and its own folder). Read from the files, not imported, so
this runs without Streamlit."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "ui"
# from the top down; docs/architecture.md says what each holds
ROOMS = ("pages", "live", "shell", "lessons", "player", "charts", "store", "settings", "serving")


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def ui_imports(path: Path, module: str, source: str | None = None) -> set[str]:
    """Every ui module a file imports, anywhere in it (relative imports resolved; `from a
    import b` counts as a.b, which is a module or a name in a)."""
    tree = ast.parse(source if source is not None else path.read_text())
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            found |= {f"{base}.{a.name}" for a in node.names}
    return {m for m in found if m == "ui" or m.startswith("ui.")}


def room(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ROOMS else None


def page_folder(module: str) -> str | None:
    """The page whose folder `module` is in (ui.pages.<page>...), None for the registry and
    the links between pages (ui.pages, ui.pages.links)."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "pages" and (UI / "pages" / parts[2]).is_dir():
        return parts[2]
    return None


def problems(path: Path, module: str, source: str | None = None) -> list[str]:
    """What `path` (as `module`, "app_pages.<page>" for a page script) imports that it may not."""
    here, own_page = room(module), page_folder(module)
    if module.startswith("app_pages."):
        here, own_page = "pages", module.split(".")[1]
    out = []
    for target in sorted(ui_imports(path, module, source)):
        there = room(target)
        if here and there and ROOMS.index(there) < ROOMS.index(here):
            out.append(f"{module} ({here}) imports {target} ({there}), a room above it")
        page = page_folder(target)
        if page and page != own_page:
            out.append(f"{module} imports {target}, the folder of the page {page!r}")
    return out


def test_ui_holds_only_rooms():
    names = sorted(p.name for p in UI.iterdir() if p.name != "__pycache__")
    assert names == sorted([*ROOMS, "__init__.py"]), names


def test_every_room_imports_only_the_rooms_below_it():
    files = sorted(UI.rglob("*.py"))
    assert len(files) > 100
    found = [p for path in files for p in problems(path, module_of(path))]
    assert not found, "\n".join(found)


def test_no_page_folder_is_imported_but_by_its_page():
    scripts = sorted((ROOT / "app_pages").glob("*.py"))
    entries = [ROOT / "app.py", ROOT / "streamlit_app.py"]
    found = [p for path in scripts for p in problems(path, f"app_pages.{path.stem}")]
    found += [p for path in entries for p in problems(path, path.stem)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("module, source, bad", [
    ("ui.serving.boot", "from ui.pages.energy_transformer import cache\n", True),
    ("ui.serving.boot", "def warm():\n    from ui.store import store\n", True),
    ("ui.store.patterns", "from ..shell import sidebar\n", True),
    ("ui.charts.figures", "from . import style\nfrom ui.serving import text\n", False),
    ("ui.pages.dense.sections", "from ui.pages.modern import figures\n", True),
    ("ui.pages.dense.sections", "from . import cache\nfrom ui.pages.links import page_link\n",
     False),
    ("ui.pages.links", "from ui import pages\n", False),
    ("app_pages.dense", "from ui.pages.dense import sections\nfrom ui.shell import layout\n",
     False),
    ("app_pages.dense", "from ui.pages.modern.settings import SETTINGS\n", True),
    ("streamlit_app", "from ui.pages.modern import cache\n", True),
])
def test_the_rules_can_fail(module, source, bad):
    path = UI.joinpath(*module.split(".")[1:]).with_suffix(".py") if module.startswith("ui.") \
        else ROOT / "x.py"
    assert bool(problems(path, module, source)) is bad
