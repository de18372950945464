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
