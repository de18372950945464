"""The app's pages, listed once: the navigation (streamlit_app.py), the deploy's warm-up
(deploy/warmup.py), the benchmarks and the tests read this list. No streamlit here, so
that a launcher or a test can import it without starting an app.

A page's url path is its file name (st.Page's rule), "" for the default page (Home)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageInfo:
    file: str   # the script's name in app_pages/, without ".py"
    title: str  # what the navigation shows
    icon: str   # a Material icon name, as st.Page takes it
    default: bool = False

    @property
    def script(self) -> str:
        return f"app_pages/{self.file}.py"

    @property
    def url_path(self) -> str:
        """The path Streamlit serves the page at: "" for the default page, else the file name."""
        return "" if self.default else self.file


PAGES = (
    PageInfo("home", "Home", ":material/home:", default=True),
    PageInfo("classical", "Classical network (1982)", ":material/grid_on:"),
    PageInfo("dense", "Dense associative memory", ":material/blur_on:"),
    PageInfo("modern", "Modern network & metastable states", ":material/scatter_plot:"),
    PageInfo("landscape", "Energy landscape", ":material/landscape:"),
    PageInfo("side_by_side", "Side by side", ":material/view_column:"),
    PageInfo("attention", "The attention limit", ":material/hub:"),
    PageInfo("energy_transformer", "Energy Transformer", ":material/auto_fix_high:"),
    PageInfo("capacity_lab", "Capacity lab", ":material/science:"),
    PageInfo("learning", "Learning the memories", ":material/school:"),
    PageInfo("attention_family", "Attention as an exponential family", ":material/functions:"),
)


def url_paths() -> list[str]:
    """Every page's url path, in the navigation's order ("" is Home)."""
    return [p.url_path for p in PAGES]
