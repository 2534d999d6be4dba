"""Text layout shared by the renderers: Japanese line breaking (kinsoku) measured with font metrics."""
from .wrap import Span, wrap, wrap_spans

__all__ = ["Span", "wrap", "wrap_spans"]
