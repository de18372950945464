"""The page "Inside a trained Transformer" (app_pages/transformer_heads.py): its settings, the
models and analyses cached per process (cache.py), the figures (figures.py), the sections
(sections.py, head.py) and the words (explain.py). The maths is hopfield_core.heads."""
