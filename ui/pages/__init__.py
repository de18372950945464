"""The app's pages, listed once: the navigation (streamlit_app.py), the deploy's warm-up
(deploy/warmup.py), the benchmarks and the tests read this list. No streamlit here, so
that a launcher or a test can import it without starting an app (a page's settings and its
warm-up are imported only when asked for: `settings_of`, `warm_up`).

One name per page: its script app_pages/<name>.py, its folder ui/pages/<name>/, its settings
Settings("<name>", ...) in ui/pages/<name>/settings.py, whose widget keys start "<name>_".
A page's url path is its name (st.Page's rule), "" for the default page (Home)."""
from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class PageInfo:
    file: str   # the script's name in app_pages/, without ".py"
    title: str  # what the navigation shows
    icon: str   # a Material icon name, as st.Page takes it
    default: bool = False        # the default page (Home): no settings of its own
    short: str | None = None     # Home's link to it, where shorter than the title
    warm: bool = False           # its cache module has a warm() for the process's start-up
    player: str | None = None    # the link's query that shows its browser player ("": as it opens)
    questions: tuple[str, ...] = ()  # the kinds of prediction question a lesson's step can ask here
    asked_in: tuple[str, ...] = ()   # the values of the page's "view" where it asks them (): any
    figure: bool = True              # a live figure (a chart, a player): Home and Lessons have none
    key_settings: tuple[str, ...] = ()  # presenter mode names these always (those the view uses)
    reveal: str | None = None  # presenter mode shows the run's result at its player's "end", on a
                               # "button" (a page without a player), or as computed (None)

    @property
    def settings(self) -> str | None:
        """The module that declares its SETTINGS, named after the page (None: no settings)."""
        return None if self.default else f"ui.pages.{self.file}.settings"

    @property
    def link_label(self) -> str:
        return self.short or self.title

    @property
    def script(self) -> str:
        return f"app_pages/{self.file}.py"

    @property
    def url_path(self) -> str:
        """The path Streamlit serves the page at: "" for the default page, else the file name."""
        return "" if self.default else self.file


PAGES = (
    PageInfo("home", "Home", ":material/home:", default=True, figure=False),
    PageInfo("lessons", "Lessons", ":material/co_present:", figure=False),
    PageInfo("classical", "Classical network (1982)", ":material/grid_on:",
             short="Classical network", player="", questions=("destination", "energy_rises"),
             key_settings=("rule", "mode", "T"), reveal="end"),
    PageInfo("dense", "Dense associative memory", ":material/blur_on:", player="",
             questions=("destination", "energy_rises"), key_settings=("interaction", "n", "mode"), reveal="end"),
    PageInfo("modern", "Modern network & metastable states", ":material/scatter_plot:", player="",
             questions=("destination", "fixed_point"), key_settings=("beta",), reveal="end"),
    PageInfo("landscape", "Energy landscape", ":material/landscape:", questions=("destination", "fixed_point"),
             asked_in=("world",), key_settings=("beta", "pbeta", "betas", "bmodel"), reveal="button"),
    PageInfo("side_by_side", "Side by side", ":material/view_column:", questions=("retrievers",),
             key_settings=("mode", "degree", "exp_beta", "beta"), reveal="button"),
    PageInfo("attention", "The attention limit", ":material/hub:", questions=("destination",),
             key_settings=("proj", "beta", "T"), reveal="button"),
    PageInfo("energy_transformer", "Energy Transformer", ":material/auto_fix_high:", warm=True,
             player="", questions=("error_falls", "energy_rises"), key_settings=("start", "mask", "steps"),
             reveal="end"),
    PageInfo("capacity_lab", "Capacity lab", ":material/science:", questions=("capacity",), asked_in=("curves",),
             key_settings=("d", "degree", "beta", "ph_d")),
    PageInfo("learning", "Learning the memories", ":material/school:", player="", questions=("held_out_falls",),
             asked_in=("plane",), key_settings=("N", "beta", "img_N", "img_beta"), reveal="end"),
    PageInfo("attention_family", "Attention as an exponential family", ":material/functions:",
             player="view=cloud", questions=("spread",), asked_in=("cloud",),
             key_settings=("beta", "cbeta", "layers", "dbeta"), reveal="end"),
    PageInfo("transformer_heads", "Inside a trained Transformer", ":material/psychology:",
             player="view=head", questions=("head_kind",), asked_in=("head",),
             key_settings=("model", "layer", "head")),
)


def url_paths() -> list[str]:
    """Every page's url path, in the navigation's order ("" is Home)."""
    return [p.url_path for p in PAGES]


def figure_paths() -> set[str]:
    """The url paths of the pages with a live figure (every page but Home and Lessons)."""
    return {p.url_path for p in PAGES if p.figure}


def page(name: str) -> PageInfo:
    """The page of that name (its file in app_pages/); ValueError for an unknown one."""
    for p in PAGES:
        if p.file == name:
            return p
    raise ValueError(f"no page is called {name!r}: the pages are {', '.join(p.file for p in PAGES)}")


def settings_of(name: str):
    """The page's Settings (ui.settings.layer.Settings), imported now (it needs streamlit); None
    for a page without settings (Home)."""
    module = page(name).settings
    return importlib.import_module(module).SETTINGS if module else None


def warm_up() -> None:
    """The pages' own start-up loads (each `ui/pages/<name>/cache.py`'s warm()), for
    ui.serving.boot.warm, which knows no page."""
    for p in PAGES:
        if p.warm:
            importlib.import_module(f"ui.pages.{p.file}.cache").warm()
