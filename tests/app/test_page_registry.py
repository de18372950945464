"""One page list (ui/pages/__init__.py): every page names its settings, which go by the page's
name; the list imports without streamlit; no other page list is typed out in the code."""
import ast
import subprocess
import sys

import pytest

from tests.support.apptest import ROOT, open_app
from ui import pages
from ui.settings.layer import Settings

PAGES = pages.PAGES


@pytest.mark.parametrize("info", PAGES, ids=[p.file for p in PAGES])
def test_every_page_names_its_settings_by_its_own_name(info):
    S = pages.settings_of(info.file)
    if info.default:  # Home: no settings of its own
        assert info.settings is None and S is None
        return
    assert (ROOT / "ui" / "pages" / info.file / "settings.py").is_file()
    assert isinstance(S, Settings)
    assert S.page == info.file and S.prefix == f"{info.file}_"
    assert all(S.state_key(k) == f"{info.file}_{k}" for k in S.fields)


def test_every_settings_module_belongs_to_a_page_of_the_registry():
    modules = {f"ui.pages.{p.parent.name}.settings"
               for p in (ROOT / "ui" / "pages").glob("*/settings.py")}
    assert modules == {p.settings for p in PAGES if p.settings}


def test_an_unknown_page_is_refused_by_name():
    with pytest.raises(ValueError, match="no page is called 'et'"):
        pages.page("et")
    assert pages.page("dense").title == "Dense associative memory"


def test_the_registry_imports_without_streamlit():
    code = "import sys, ui.pages; print('streamlit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_home_links_every_page_by_its_registry_label():
    at = open_app()
    links = [(p.proto.page, p.proto.label) for p in at.get("page_link")]
    assert links == [(p.file, p.link_label) for p in PAGES if not p.default]
    assert ("classical", "Classical network") in links  # shorter than its title, as before


def page_names_in(node) -> set[str]:
    """The page names a list, tuple or set literal spells out, or a dict's keys where it maps
    pages to things imported (a page list beside the registry, as the settings test had). A table
    of what each page should show, checked over the registry's pages, is not one."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        items = node.elts
    elif isinstance(node, ast.Dict) and all(isinstance(v, (ast.Name, ast.Attribute))
                                            for v in node.values):
        items = [k for k in node.keys if k is not None]
    else:
        return set()
    names = {p.file for p in PAGES}
    return {i.value for i in items if isinstance(i, ast.Constant) and i.value in names}


def test_no_page_list_is_typed_out_beside_the_registry():
    """A literal naming more than half the pages is a second page list (deploy and benchmarks
    had stale ones); a few pages picked for a test (e.g. the ones with a Step button) are not."""
    most = len(PAGES) // 2
    files = [ROOT / "streamlit_app.py", ROOT / "app.py"] + [
        p for folder in ("app_pages", "ui", "deploy", "benchmarks", "tests")
        for p in (ROOT / folder).rglob("*.py")]
    found = []
    for path in files:
        if path == ROOT / "ui" / "pages" / "__init__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = page_names_in(node)
            if len(names) > most:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} ({len(names)} pages)")
    assert not found, found


def test_the_scan_finds_a_page_list():
    """The check above can fail: a list of every page's name, or a dict of their settings."""
    listed = "[" + ", ".join(repr(p.file) for p in PAGES) + "]"
    mapped = "{" + ", ".join(f"{p.file!r}: S.{p.file}" for p in PAGES) + "}"
    for code in (listed, mapped):
        assert len(page_names_in(ast.parse(code).body[0].value)) == len(PAGES)
