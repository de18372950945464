"""Streamlit-side helpers: session state and caching (state), Plotly figures (figures),
shared widgets (widgets). Pages call these; the maths lives in hopfield_core."""
