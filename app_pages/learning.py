"""Learning the memories: the modern Hopfield network as an energy-based model with an exact
partition function, its patterns learned by maximum likelihood. Layout only: the parts are in
ui/pages/learning/."""
from ui.pages.learning import explain, sections
from ui.pages.learning.settings import SETTINGS
from ui.shell import sidebar


def main() -> None:
    S = SETTINGS.bind()
    explain.intro()
    view = S.show("view", label_visibility="collapsed", width="stretch")
    if view == "images":
        sidebar.panels(binary=False, query=False)
        sections.images_section()
    else:
        sections.plane_section()
    explain.lede_below()
    explain.explain(view)
    explain.try_this()


main()
