"""Text layout shared by the renderers: Japanese line breaking (kinsoku) measured with font metrics."""
from .wrap import Span, balanced_width, fit_line, wrap, wrap_spans

__all__ = ["Span", "balanced_width", "fit_line", "wrap", "wrap_spans"]
