"""Hopfield energy landscapes: the script every session runs (the navigation, the shared
sidebar, then the page). `streamlit run app.py` serves it; app.py warms the process first."""
import streamlit as st

from ui import boot

st.set_page_config(page_title="Hopfield energy landscapes", page_icon="🧠", layout="wide")
boot.warm()  # done at server start (app.py); here for any other host of this script, e.g. AppTest

from ui import page_registry, settings, sidebar, state, widgets  # noqa: E402  (after the warm-up, by design)

pages = [st.Page(p.script, title=p.title, icon=p.icon, default=p.default)
         for p in page_registry.PAGES]
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
