"""Hopfield energy landscapes: the script every session runs (the navigation, the shared
sidebar, then the page). `streamlit run app.py` serves it; app.py warms the process first."""
import streamlit as st

from ui import boot

st.set_page_config(page_title="Hopfield energy landscapes", page_icon="🧠", layout="wide")
boot.warm()  # done at server start (app.py); here for any other host of this script, e.g. AppTest

from ui import page_registry, page_style, settings, shared_settings, sidebar, widgets  # noqa: E402  (after the warm-up, by design)

pages = [st.Page(p.script, title=p.title, icon=p.icon, default=p.default)
         for p in page_registry.PAGES]
page = st.navigation(pages)
shared_settings.bind()  # the shared settings, the store, the query image, presenter mode
sidebar.presenter_toggle()  # the pages add the shared panels they use
page_style.apply()
messages = st.container()  # above the page: what the link asked for that could not be used
settings.clear_page()
page.run()
# the address bar follows the values in use: the shared ones (sidebar, store, query image,
# presenter) and the page's own; what no page uses (junk, a bad value) is dropped. Home has
# no settings
settings.publish(shared_settings.SIDEBAR, shared_settings.LINK, settings.page())
with messages:
    widgets.lesson_line()  # hidden controls named where no row of controls did
    widgets.link_messages()
