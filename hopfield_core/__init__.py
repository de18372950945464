"""The numeric core: every Hopfield variant, images as patterns, and the Energy Transformer.

Imports neither streamlit nor plotly; torch only inside `hopfield_core.et`.
"""
from ._version import version as __version__
from .attention import hopfield_attention
from .classical import ClassicalHopfield
from .dense import DenseAssociativeMemory
from .modern import ModernHopfield, RetrievalBound, fixed_point_kind, k90
from .numerics import softmax
from .trajectory import Trajectory

__all__ = [
    "__version__", "ClassicalHopfield", "DenseAssociativeMemory", "ModernHopfield", "RetrievalBound",
    "Trajectory", "fixed_point_kind", "hopfield_attention", "k90", "softmax",
]
