"""Hopfield energy landscapes: the script every session runs (the navigation, the shared
sidebar, then the page). `streamlit run app.py` serves it; app.py warms the process first."""
import streamlit as st

from ui import boot

st.set_page_config(page_title="Hopfield energy landscapes", page_icon="🧠", layout="wide")
boot.warm()  # done at server start (app.py); here for any other host of this script, e.g. AppTest

from ui import settings, sidebar, state, widgets  # noqa: E402  (after the warm-up, by design)

pages = [
    st.Page("app_pages/home.py", title="Home", icon=":material/home:", default=True),
    st.Page("app_pages/classical.py", title="Classical network (1982)", icon=":material/grid_on:"),
    st.Page("app_pages/dense.py", title="Dense associative memory", icon=":material/blur_on:"),
    st.Page("app_pages/modern.py", title="Modern network & metastable states",
            icon=":material/scatter_plot:"),
    st.Page("app_pages/landscape.py", title="Energy landscape", icon=":material/landscape:"),
    st.Page("app_pages/side_by_side.py", title="Side by side", icon=":material/view_column:"),
    st.Page("app_pages/attention.py", title="The attention limit", icon=":material/hub:"),
    st.Page("app_pages/energy_transformer.py", title="Energy Transformer",
            icon=":material/auto_fix_high:"),
    st.Page("app_pages/capacity_lab.py", title="Capacity lab", icon=":material/science:"),
    st.Page("app_pages/learning.py", title="Learning the memories", icon=":material/school:"),
    st.Page("app_pages/attention_family.py", title="Attention as an exponential family",
            icon=":material/functions:"),
]
page = st.navigation(pages)
state.init_from_url()
sidebar.presenter_toggle()  # the pages add the shared panels they use
widgets.apply_page_style()
messages = st.container()  # above the page: what the link asked for that could not be used
settings.clear_page()
page.run()
if settings.page() is not None:  # a page on the settings layer: the address bar follows it
    state.publish_url(settings.page().link())
with messages:
    widgets.link_messages()
