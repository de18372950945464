"""The README's two commands are the ones the project actually uses."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def command_under(heading: str) -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split(f"## {heading}", 1)[1]
    return re.search(r"```bash\n(.+?)\n```", section, re.S).group(1).strip()


def test_ci_runs_the_readme_test_command_verbatim():
    cmd = command_under("Run the tests")
    assert "pytest" in cmd
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert cmd in ci_lines


def test_the_app_command_names_files_that_exist():
    cmd = command_under("Run the app")
    assert cmd.endswith("streamlit run app.py")
    for req in re.findall(r"-r (\S+)", cmd + " " + command_under("Run the tests")):
        assert (ROOT / req).is_file()
    assert "torch==2.13.0" in (ROOT / "requirements.txt").read_text()


def test_the_readme_is_short_and_every_link_in_it_and_in_the_docs_exists():
    """Issue 32: a README read in two minutes, the rest in docs/; no link leads nowhere, and
    the screenshot says what it shows."""
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 150
    for doc in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        for target in re.findall(r"\]\(([^)#\s]+)", doc.read_text()):
            if "://" not in target:
                assert (doc.parent / target).exists(), (doc.name, target)
    images = re.findall(r"!\[([^\]]*)\]\(([^)]+)\)", readme)
    assert images and all(len(alt) > 40 and (ROOT / src).is_file() for alt, src in images)


def test_every_test_that_docs_science_cites_exists():
    """docs/science.md backs each page's claims with tests, named file::function: each one must
    be a test function of that file (a moved or renamed test breaks the table here)."""
    import ast

    cited = re.findall(r"(tests/[\w/]+\.py)::(\w+)", (ROOT / "docs" / "science.md").read_text())
    assert len(cited) >= 50
    defined = {}
    for path, name in cited:
        if path not in defined:
            tree = ast.parse((ROOT / path).read_text())
            defined[path] = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert name.startswith("test") and name in defined[path], f"{path}::{name}"


def test_the_fast_inner_loop_is_documented_and_starts_no_server_and_no_browser():
    """docs/architecture.md's fast command: its folders exist, and no test in them starts a
    server, a browser or the websocket client (itself or through tests/support)."""
    from tests.support.imports import reaches

    doc = (ROOT / "docs" / "architecture.md").read_text()
    section = doc.split("The fast inner loop", 1)[1]
    cmd = re.search(r"```bash\n(.+?)\n```", section, re.S).group(1).strip()
    assert cmd.startswith("python -m pytest ")
    folders = cmd.split()[3:]
    assert folders and all((ROOT / f).is_dir() for f in folders), folders
    slow = {"tests.support.server", "tests.support.chromium", "tests.support.st_client",
            "tests.support.launcher", "playwright.sync_api"}
    found = {str(p.relative_to(ROOT)): reaches(p) & slow
             for f in folders for p in (ROOT / f).rglob("*.py") if reaches(p) & slow}
    assert not found, found
    assert "python -m pytest" in command_under("Run the tests")
