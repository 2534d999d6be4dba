"""A book's drawing pass without laying it out again: the layout pass records its pages, the
drawing pass draws them.

A book is set twice (typeset.render): a layout pass finds the page of every heading, then a
drawing pass prints the contents with those pages. The contents' lines are one line high
whatever they say, so the drawing pass would break every page where the layout pass did; it used
to find those breaks again (platypus's wrap, split and keep-with-next over the whole story, about
a third of a book's time). Here the layout pass's document (`RecordingDoc`, its frame a
`RecordingFrame`) notes each page's template and each flowable its frame drew, with where, and
`replay` draws those same flowables at those places on a new document, with the calls
BaseDocTemplate.build makes around them (page begin and end, the page templates' footers), so
the PDF is byte for byte what the second pass gave. The flowables are the layout pass's own: what
they draw is switched on by their Recorder (flowables.py), and the contents look their pages up
in the layout pass's anchors.
"""
from __future__ import annotations

import copy
from typing import Any

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame

# per page: (index of its page template, [(flowable, x, y, room left beside it)] in drawing order)
Placed = tuple[Flowable, float, float, float]


class Pages(list[tuple[int, list[Placed]]]):
    """A layout pass's pages. Never copied: platypus deep-copies flowables (keep-with-next) and
    with them the frame they are being added to, which holds these."""

    def __deepcopy__(self, memo: dict) -> "Pages":
        return self


class RecordingDoc(BaseDocTemplate):
    """A document whose build notes its pages (`pages`; its frames, RecordingFrames, note what they draw)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.pages = Pages()

    def handle_pageBegin(self) -> None:
        self.pages.append((self.pageTemplates.index(self.pageTemplate), []))
        super().handle_pageBegin()


class RecordingFrame(Frame):
    """A frame that notes, in its document's page, each flowable it draws and where (`pages` is
    the RecordingDoc's, given when the frame is made)."""

    pages: Pages

    def __deepcopy__(self, memo: dict) -> "RecordingFrame":
        """What copy.deepcopy gives, without walking the frame's two dozen numbers: platypus copies
        the frame at every keep-with-next (reportlab's _listWrapOn, 1694 times over the example
        books). Numbers and strings are shared as deepcopy shares them; anything else is deep-copied."""
        new = copy.copy(self)
        for name, value in self.__dict__.items():
            if not isinstance(value, (int, float, str, Pages)) and value is not None:
                setattr(new, name, copy.deepcopy(value, memo))
        return new

    def _add(self, flowable: Flowable, canv: Any, trySplit: int = 0) -> int:
        page = self.pages[-1][1]

        def placed(c: Any, x: float, y: float, _sW: float = 0) -> None:
            page.append((flowable, x, y, _sW))
            type(flowable).drawOn(flowable, c, x, y, _sW)

        flowable.drawOn = placed  # for this call only
        try:
            return super()._add(flowable, canv, trySplit)
        finally:
            del flowable.drawOn

    add = _add


def recording_frame(pages: Pages, *args: Any, **kwargs: Any) -> RecordingFrame:
    frame = RecordingFrame(*args, **kwargs)
    frame.pages = pages
    return frame


class PrintCanvas(Canvas):
    """A canvas whose document has no links, named destinations or outline entries: an A5 book
    made to be imposed, which keeps only its pages' content and resources (impose.py). Its pages'
    content is the same bytes: none of these writes to a page's stream."""

    def linkRect(self, *args: Any, **kwargs: Any) -> None:
        pass

    def bookmarkHorizontal(self, *args: Any, **kwargs: Any) -> None:
        pass

    def addOutlineEntry(self, *args: Any, **kwargs: Any) -> None:
        pass


def replay(doc: BaseDocTemplate, pages: Pages, links: bool = True) -> None:
    """Draw `pages` (a RecordingDoc's; each page's flowables are let go once drawn) on `doc`, a new
    document with the same page templates, as its build would have drawn the same story, and save it.
    Without `links` its canvas is a PrintCanvas: the book's pages alone (about 0.1 CPU-s of a cold
    build's booklets went to formatting what their imposition drops)."""
    doc._startBuild(canvasmaker=Canvas if links else PrintCanvas)
    canv = doc.canv
    doc._savedInfo = canv._doc.info
    canv._doctemplate = doc
    doc._hanging = []  # the pages begin here, not from the story
    try:
        for template, placed in pages:
            doc.pageTemplate = doc.pageTemplates[template]
            doc.handle_pageBegin()
            for f, x, y, room in placed:
                f._frame, f.canv = doc.frame, canv
                f.drawOn(canv, x, y, _sW=room)
                for a in ("canv", "_frame"):
                    if hasattr(f, a):
                        delattr(f, a)
                doc._curPageFlowableCount += 1
            placed.clear()  # drawn: let go of them, as platypus does of each flowable it has drawn
            doc.handle_pageEnd()
        doc._hanging = []
    finally:
        del canv._doctemplate
    canv._doc.info = doc._savedInfo
    doc._removeVars(("build", "page", "frame"))
    canv.save()
    # the drawing's memos on the canvas (drawstring.py, drawn.py: `_pnp_*`) let go of now: the
    # canvas and its document hold each other and are freed only by a collection, which walked
    # every memo's strings and tuples too
    for name in [k for k in vars(canv) if k.startswith("_pnp_")]:
        delattr(canv, name)
