"""Work in progress (filled in this session)."""
import streamlit as st

st.title("landscape")
