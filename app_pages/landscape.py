"""The energy landscape: see the surface the dynamics roll down, in 2-D, on planes and lines
through image space, and exhaustively for small binary networks. Layout only: the pieces are
in ui/pages/landscape/."""
import streamlit as st

from ui.pages.landscape import explain, plane, slice, states, world
from ui.pages.landscape.settings import SETTINGS
from ui.shell import sidebar
from ui.store import patterns, store


def main() -> None:
    SETTINGS.bind()
    view = SETTINGS["view"]  # the sidebar shows what the open section uses
    sidebar.panels(store=view in ("plane", "slice") or (view == "states" and SETTINGS["bsrc"] == "store"),
                   representation=view in ("plane", "slice"), binary=False, query=view == "plane")
    explain.intro()
    # one section at a time: only the chosen one runs, a closed one costs the server nothing
    view = SETTINGS.show("view", label_visibility="collapsed", width="stretch")
    with st.container():
        if view == "world":
            world.show()
        elif view == "states":
            states.show()
        else:
            ps = patterns.from_store(binary=False)
            if ps.N == 0:
                st.info(store.store_first())
            else:
                (plane if view == "plane" else slice).show(ps)
    explain.lede_below()
    explain.explain()


main()
