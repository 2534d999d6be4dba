"""Text layout shared by the renderers: where lines may break (kinsoku, Latin words) and filling
lines measured with font metrics. The one line breaker: cards, counters, maps and rulebooks."""
from .breaking import Group, groups
from .wrap import Span, balanced_width, fit_line, wrap, wrap_spans

__all__ = ["Group", "Span", "balanced_width", "fit_line", "groups", "wrap", "wrap_spans"]
