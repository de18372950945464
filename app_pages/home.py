"""Home: what the app is, the road from Hopfield 1982 to the Transformer, how to start.
Layout only: the prose is in ui/pages/home/explain.py."""
import streamlit as st

from ui import pages
from ui.live import join_form
from ui.pages.home import explain


def main() -> None:
    explain.intro()
    join_form.draw()  # a student with a class code from the board
    # the pages right under the introduction: on a phone within the first two screens
    st.header("The pages")
    with st.container(horizontal=True, wrap=True, gap="medium"):  # wraps on a narrow screen
        for p in pages.PAGES:
            if not p.default:
                st.page_link(p.script, label=p.link_label, width="content")
    explain.road()
    explain.how_to_start()


main()
