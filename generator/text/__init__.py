"""Text layout shared by the renderers: where lines may break (kinsoku, Latin words) and filling
lines measured with font metrics. The one line breaker: cards, counters, maps and rulebooks."""
from .breaking import Group, groups
from .wrap import Span, balanced_width, fit_line, wrap, wrap_spans

__all__ = ["Group", "Span", "balanced_width", "fit_line", "forget_paragraphs", "groups", "wrap", "wrap_spans"]


def forget_paragraphs() -> None:
    """A rulebooks unit has ended: let go of what the line breaker remembers of its lines (wrapped
    lines, measured strings, typeset quotes), and of what it remembers of a paragraph whatever the
    width (groups, breaks, hyphen points, advances) all that the last three units did not use
    (text/memo.py: a translated book sets again the paragraphs of the two units before it). A
    build's rulebooks unit sets a game's books in one language at several widths and sizes and
    then calls this. Everything kept, a one-process build of the examples held some 25 MB more at
    its end (301 against 275 MB at its peak)."""
    from .breaking import _groups, _inside, _paragraph
    from .typography import _typeset_spans
    from .wrap import _measurer, _sums, _wrap_spans  # (the package's `wrap` is the function)

    for cache in (_wrap_spans, _measurer, _typeset_spans):
        cache.cache_clear()
    for memo in (_groups, _inside, _paragraph, _sums):
        memo.age()
