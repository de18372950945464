"""The Energy Transformer page's pieces (the page itself, app_pages/energy_transformer.py, is
layout): `settings`, its fields; `controls`, the image, mask, steps, model and device;
`sections`, the completion and what the player shows; `cache`, the model, completions and
spectra shared by every session; `figures`, its Plotly builders; `explain`, its words."""
