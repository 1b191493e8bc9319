"""An HTML view of coreference clusters: `spacy_coref.render(doc)`.

Each cluster gets a colour. Every mention is underlined in its cluster's colour, nested and
overlapping mentions on stacked lines, with the cluster number on the line where the mention
starts: the look of displaCy's span style. Hovering (or focusing with the keyboard) a mention or
a legend entry highlights every mention of its cluster. The markup is self-contained: inline CSS
and a few lines of inline JavaScript, no network resources.

displaCy's span renderer is not used itself: its templates get a colour and an offset per line
but not the span a line belongs to, so a page cannot tell which cluster a hovered line is part
of; it also joins tokens with single spaces, which loses the line breaks of the text.
"""
import colorsys
import html
from typing import Iterable, List, NamedTuple, Sequence, Tuple, Union

from spacy.tokens import Doc

from .annotations import CLUSTER_PREFIX, cluster_keys, cluster_number
from .errors import Errors
from .extensions import Cluster

# fmt: off
# Distinct colours for the first clusters (Tableau 10 and friends); later clusters get hues
# spaced by the golden angle, so neighbouring numbers never look alike.
PALETTE = [
    "#4e79a7", "#f28e2b", "#e15759", "#59a14f", "#b07aa1", "#edc948", "#76b7b2", "#ff9da7",
    "#9c755f", "#1f77b4", "#2ca02c", "#d62728",
]
# fmt: on
# Geometry in px, for the 16px font the view sets.
LINE_TOP = 26  # the first line, just under the text
LINE_STEP = 15  # one more nesting level; leaves room for the 10px cluster number

CSS = """
.coref-doc { font-size: 16px; line-height: 24px; white-space: pre-wrap; padding: 0.5rem 0;
  font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica, Arial, sans-serif; }
.coref-doc h2 { font-size: 18px; margin: 0 0 0.5rem 0; white-space: normal; }
.coref-tok, .coref-word { display: inline-block; position: relative; vertical-align: baseline; }
.coref-tok { border-radius: 3px; }
/* only the 24px band of the text, not the lines under it */
.coref-tok.coref-active { background: linear-gradient(var(--coref-hl), var(--coref-hl))
  no-repeat; background-size: 100% 24px; }
.coref-line { position: absolute; left: 0; width: 100%; height: 3px; border-radius: 1px; }
.coref-line.coref-active { height: 5px; }
.coref-label { position: absolute; inset-inline-start: 0; z-index: 2; padding: 1px 3px;
  font-size: 10px; line-height: 10px; font-weight: bold; color: #fff; border-radius: 3px;
  cursor: default; }
.coref-label.coref-active, .coref-key.coref-active { outline: 2px solid #222; }
.coref-legend { white-space: normal; font-size: 13px; color: #444; margin-top: 0.5rem; }
.coref-entry { display: inline-block; margin: 0 1rem 0.25rem 0; }
.coref-key { display: inline-block; min-width: 1.2em; padding: 0 3px; color: #fff;
  font-weight: bold; text-align: center; border-radius: 3px; cursor: default; }
"""

# Event delegation on the document, installed once however many views a page holds.
SCRIPT = """
(function () {
  if (window.spacyCorefView) { return; }
  window.spacyCorefView = true;
  function show(target) {
    var view = target ? target.closest('.coref-doc') : null;
    document.querySelectorAll('.coref-active').forEach(function (el) {
      el.classList.remove('coref-active');
    });
    if (!view) { return; }
    var cluster = target.getAttribute('data-cluster');
    view.style.setProperty('--coref-hl', target.getAttribute('data-color') + '40');
    view.querySelectorAll('[data-cluster="' + cluster + '"], .coref-in-' + cluster)
      .forEach(function (el) { el.classList.add('coref-active'); });
  }
  function clusterOf(node) {
    return node && node.closest ? node.closest('.coref-doc [data-cluster]') : null;
  }
  document.addEventListener('mouseover', function (e) { show(clusterOf(e.target)); });
  document.addEventListener('focusin', function (e) { show(clusterOf(e.target)); });
  document.addEventListener('mouseout', function (e) {
    if (!clusterOf(e.relatedTarget)) { show(null); }
  });
})();
"""

PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>{css}</style>
</head>
<body style="margin: 2rem; max-width: 60rem;">
{content}
<script>{script}</script>
</body>
</html>
"""


class Mention(NamedTuple):
    start: int  # token offsets, end exclusive
    end: int
    cluster: int  # the number of the `doc.spans` key, `coref_clusters_{cluster}`
    slot: int  # nesting level: 0 is the line closest to the text


def render(
    docs: Union[Doc, Iterable[Doc]],
    *,
    page: bool = False,
    legend: bool = True,
    title: str = "Coreference clusters",
    prefix: str = CLUSTER_PREFIX,
) -> str:
    """Render the coreference clusters of one or more docs as HTML.

    docs (Union[Doc, Iterable[Doc]]): The doc or docs, with clusters in
        `doc.spans["coref_clusters_N"]` (docs without clusters show their plain text).
    page (bool): A whole HTML page; False gives a fragment (with its style and script) to embed,
        e.g. in Jupyter with `IPython.display.HTML`.
    legend (bool): List each cluster (number, main mention, mention count) under its doc.
    title (str): The page title, with `page=True`. A doc's own heading is
        `doc.user_data["title"]`, as in displaCy.
    prefix (str): The `doc.spans` key prefix of the clusters.
    RETURNS (str): The HTML.
    """
    if isinstance(docs, Doc):
        docs = [docs]
    elif isinstance(docs, (str, bytes)) or not isinstance(docs, Iterable):
        raise TypeError(Errors.CE206.format(found=type(docs).__name__))
    views: List[str] = []
    lang = "en"
    for doc in docs:
        if not isinstance(doc, Doc):
            raise TypeError(Errors.CE206.format(found=f"an iterable holding {type(doc).__name__}"))
        lang = doc.lang_ or lang
        views.append(render_doc(doc, legend=legend, prefix=prefix))
    if page:
        return wrap_page(views, title=title, lang=lang)
    content = "\n".join(views)
    return f"<style>{CSS}</style>\n{content}\n<script>{SCRIPT}</script>"


def wrap_page(views: Sequence[str], *, title: str, lang: str = "en") -> str:
    """A whole HTML page holding views made by `render_doc`.

    views (Sequence[str]): The rendered docs.
    title (str): The page title.
    lang (str): The page language.
    RETURNS (str): The page.
    """
    return PAGE.format(
        lang=html.escape(lang),
        title=html.escape(title),
        css=CSS,
        content="\n".join(views),
        script=SCRIPT,
    )


def render_doc(doc: Doc, *, legend: bool = True, prefix: str = CLUSTER_PREFIX) -> str:
    """The view of one doc, without the style and script that `render` and `wrap_page` add.

    doc (Doc): The doc.
    legend (bool): List the clusters under the text.
    prefix (str): The `doc.spans` key prefix of the clusters.
    RETURNS (str): The HTML of the view.
    """
    mentions = _place(_collect(doc, prefix))
    covering: List[List[Mention]] = [[] for _ in range(len(doc))]
    for mention in mentions:
        for i in range(mention.start, mention.end):
            covering[i].append(mention)
    parts: List[str] = []
    heading = doc.user_data.get("title")
    if heading:
        parts.append(f"<h2>{html.escape(str(heading))}</h2>")
    for token in doc:
        parts.append(_render_token(token.i, doc, covering[token.i]))
    if legend:
        parts.append(_render_legend(doc, prefix))
    direction = doc.vocab.writing_system.get("direction", "ltr")
    return f'<div class="coref-doc" dir="{html.escape(direction)}">{"".join(parts)}</div>'


def cluster_color(number: int) -> str:
    """The colour of cluster `number` (from 1) as #rrggbb."""
    if 1 <= number <= len(PALETTE):
        return PALETTE[number - 1]
    hue = (number * 0.381966) % 1.0  # the golden angle as a fraction of a turn
    red, green, blue = colorsys.hls_to_rgb(hue, 0.42, 0.65)
    return "#{:02x}{:02x}{:02x}".format(int(red * 255), int(green * 255), int(blue * 255))


def _collect(doc: Doc, prefix: str) -> List[Tuple[int, int, int]]:
    """(start, end, cluster number) of every mention, each once per cluster. Empty spans have
    no text to underline and are left out."""
    found = set()
    for key in cluster_keys(doc, prefix):
        number = cluster_number(key)
        for span in doc.spans[key]:
            if span.end > span.start:
                found.add((span.start, span.end, number))
    return sorted(found)


def _place(offsets: List[Tuple[int, int, int]]) -> List[Mention]:
    """Give each mention the lowest nesting level that no overlapping mention holds, outer
    mentions first. Sorted by start, so only mentions still open at a start can overlap it."""
    ordered = sorted(offsets, key=_outer_first)
    placed: List[Mention] = []
    open_mentions: List[Mention] = []
    for start, end, cluster in ordered:
        open_mentions = [m for m in open_mentions if m.end > start]
        taken = {m.slot for m in open_mentions}
        slot = next(s for s in range(len(taken) + 1) if s not in taken)
        mention = Mention(start, end, cluster, slot)
        open_mentions.append(mention)
        placed.append(mention)
    return placed


def _outer_first(offsets: Tuple[int, int, int]) -> Tuple[int, int, int]:
    start, end, cluster = offsets
    return (start, -end, cluster)


def _render_token(i: int, doc: Doc, covering: List[Mention]) -> str:
    token = doc[i]
    if not covering:
        return html.escape(token.text_with_ws)
    ws = token.whitespace_
    # Lines of mentions that go on to the next token also run under the space after this one;
    # a line break ends every line.
    goes_on = [m for m in covering if m.end > i + 1 and "\n" not in ws]
    ends = [m for m in covering if m not in goes_on]
    starts = [m for m in covering if m.start == i]
    innermost = min(covering, key=_shortest_deepest)
    color = cluster_color(innermost.cluster)
    classes = " ".join(sorted({f"coref-in-{m.cluster}" for m in covering}))
    height = LINE_TOP + (max(m.slot for m in covering) + 1) * LINE_STEP
    word = (
        f'<span class="coref-word">{html.escape(token.text)}'
        f'{"".join(_line(m) for m in ends)}{"".join(_label(m, doc) for m in starts)}</span>'
    )
    inside_ws = html.escape(ws) if goes_on else ""
    after_ws = "" if goes_on else html.escape(ws)
    return (
        f'<span class="coref-tok {classes}" data-i="{i}" data-cluster="{innermost.cluster}" '
        f'data-color="{color}" style="height: {height}px">{word}{inside_ws}'
        f'{"".join(_line(m) for m in goes_on)}</span>{after_ws}'
    )


def _shortest_deepest(mention: Mention) -> Tuple[int, int]:
    return (mention.end - mention.start, -mention.slot)


def _line(mention: Mention) -> str:
    color = cluster_color(mention.cluster)
    top = LINE_TOP + mention.slot * LINE_STEP
    return (
        f'<span class="coref-line" data-cluster="{mention.cluster}" data-color="{color}" '
        f'data-mention="{mention.start}:{mention.end}" '
        f'style="top: {top}px; background: {color}"></span>'
    )


def _label(mention: Mention, doc: Doc) -> str:
    color = cluster_color(mention.cluster)
    top = LINE_TOP + mention.slot * LINE_STEP - 4
    text = html.escape(f"cluster {mention.cluster}: {doc[mention.start : mention.end].text}")
    return (
        f'<span class="coref-label" tabindex="0" title="{text}" '
        f'data-cluster="{mention.cluster}" data-color="{color}" '
        f'style="top: {top}px; background: {color}">{mention.cluster}</span>'
    )


def _render_legend(doc: Doc, prefix: str) -> str:
    entries: List[str] = []
    for key in cluster_keys(doc, prefix):
        group = doc.spans[key]
        if len(group):
            cluster = Cluster(group, len(entries), key=key)
            entries.append(_legend_entry(cluster_number(key), cluster.main.text, len(cluster)))
    if not entries:
        return '<div class="coref-legend">No coreference clusters.</div>'
    return f'<div class="coref-legend">{"".join(entries)}</div>'


def _legend_entry(number: int, main: str, size: int) -> str:
    color = cluster_color(number)
    plural = "s" if size != 1 else ""
    return (
        f'<span class="coref-entry" dir="ltr"><span class="coref-key" tabindex="0" '
        f'data-cluster="{number}" data-color="{color}" style="background: {color}">{number}'
        f"</span> <bdi>{html.escape(main)}</bdi> ({size} mention{plural})</span>"
    )
