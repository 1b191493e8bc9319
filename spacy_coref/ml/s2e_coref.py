"""`spacy_coref.S2ECoref.v4` (and v3, v2, v1): token vectors from any tok2vec (a
`spacy-transformers` listener, a CNN `Tok2Vec`, ...), candidates from the doc, and the torch s2e
head with Entity Equalization. v2 adds annotation schemes and keeps antecedents from containing
their mention; v3 adds linguistic features of the candidates (parse, morphology, entities,
speakers); v4 can read those features from the text alone, as a model trained without a parser
needs (the same scores on a parsed doc as on a bare one)."""
from typing import Any, Callable, List, Optional, Sequence, Tuple

import torch
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import ArgsKwargs, Model, PyTorchWrapper_v2, torch2xp, xp2torch
from thinc.types import Floats1d, Floats2d, Ints2d

from ..annotations import get_scheme
from ..errors import Errors
from ..linguistics.shared_analysis import MentionAnalysis
from ..profiling import HEAD, section
from ..types import CorefScores
from .candidates import CandidateSource, doc_candidates
from .coref_features import FEATURE_ANNOTATIONS, candidate_attributes, text_view
from .torch.pair_features import FEATURE_GROUP_PARAMETERS, FEATURE_GROUPS
from .torch.s2e import FEATURE_PREFIX, DocScores, S2ECorefHead

InT = List[Doc]


OutT = List[CorefScores]
# The gradient of the loss for one doc: (d_scores [M, 1 + K], d_mention_scores [C]).
GradT = List[Tuple[Floats2d, Floats1d]]


@registry.architectures("spacy_coref.S2ECoref.v2")
def build_s2e_coref_v2(
    tok2vec: Model[List[Doc], List[Floats2d]],
    hidden_width: int = 256,
    dropout: float = 0.3,
    top_lambda: float = 0.4,
    max_antecedents: int = 50,
    antecedent_window: int = 500,
    entity_equalization: bool = True,
    ee_chunk: int = 1024,
    ee_mean: bool = False,
    candidates: CandidateSource = "rules",
    candidates_key: str = "coref_mentions",
    max_span_width: int = 10,
    mixed_precision: bool = False,
    schemes: Sequence[str] = (),
    containing_antecedents: bool = False,
) -> Model[InT, OutT]:
    """The s2e coreference model.

    tok2vec (Model): token vectors for each doc; its output width is read at initialization.
    hidden_width (int): width of the start/end projections m_s, m_e, a_s, a_e.
    dropout (float): dropout on the token vectors.
    top_lambda (float): keep the top lambda * T candidates by mention score (at least 20).
    max_antecedents (int): K, the candidate antecedents kept per mention.
    antecedent_window (int): how many earlier mentions are scored as antecedents.
    entity_equalization (bool): refine mention representations with Entity Equalization.
    ee_chunk (int): Entity Equalization works on chunks of at most this many mentions.
    ee_mean (bool): Entity Equalization's entity representation is a weighted mean over the
        entity's mentions so far, not a sum (which grows with the entity's size).
    candidates (str): "rules" (doc.spans[candidates_key]), "spans" (all spans up to
        max_span_width), "both", or "sentence_spans" (the spans up to max_span_width within
        one sentence that neither start nor end on punctuation).
    mixed_precision (bool): fp16/bf16 autocast for the head on GPU.
    schemes (Sequence[str]): the annotation schemes the model tells apart (e.g. ["ontonotes",
        "litbank"]): a doc follows the scheme it names (doc.user_data["coref_scheme"], set by
        `spacy-coref convert --scheme`), else the pipe's `scheme` setting, else the first.
        Empty: one scheme for all docs, as v1.
    containing_antecedents (bool): allow an antecedent that contains its mention (v1 does).
    RETURNS (Model): docs -> List[CorefScores].
    """
    if len(set(schemes)) != len(schemes) or not all(isinstance(s, str) and s for s in schemes):
        raise ValueError(Errors.CE105.format(schemes=list(schemes)))
    head_cfg = dict(
        hidden=hidden_width,
        dropout=dropout,
        top_lambda=top_lambda,
        max_antecedents=max_antecedents,
        antecedent_window=antecedent_window,
        entity_equalization=entity_equalization,
        ee_chunk=ee_chunk,
        ee_mean=ee_mean,
        n_schemes=len(schemes),
        containing_antecedents=containing_antecedents,
    )
    return Model(
        "s2e_coref",
        forward,
        init=init,
        layers=[tok2vec],
        refs={"tok2vec": tok2vec},
        dims={"nI": None},
        attrs={
            "head_cfg": head_cfg,
            "mixed_precision": mixed_precision,
            "candidates": dict(source=candidates, key=candidates_key, max_width=max_span_width),
            "schemes": list(schemes),
            # the scheme of docs that name none: the pipe sets it from its `scheme` setting
            "default_scheme": None,
        },
    )


@registry.architectures("spacy_coref.S2ECoref.v3")
def build_s2e_coref_v3(
    tok2vec: Model[List[Doc], List[Floats2d]],
    hidden_width: int = 256,
    dropout: float = 0.3,
    top_lambda: float = 0.4,
    max_antecedents: int = 50,
    antecedent_window: int = 500,
    entity_equalization: bool = True,
    ee_chunk: int = 1024,
    ee_mean: bool = False,
    candidates: CandidateSource = "rules",
    candidates_key: str = "coref_mentions",
    max_span_width: int = 10,
    mixed_precision: bool = False,
    schemes: Sequence[str] = (),
    containing_antecedents: bool = False,
    features: bool = True,
    feature_width: int = 32,
    features_only: bool = False,
    feature_groups: Sequence[str] = FEATURE_GROUPS,
) -> Model[InT, OutT]:
    """The s2e coreference model with linguistic features: per candidate, its type (pronoun,
    name, noun, event), person, number, gender, reflexivity, entity label, head word shape and
    width enter the mention score and a bilinear antecedent score; per pair, token, sentence
    and mention distance, string and head match, speaker match, binding and nesting each add a
    learned score before the top antecedents are chosen. The features' output weights start at
    zero: v2 weights load into it (see spacy_coref.init_coref_weights.v1) and score as before.
    The other settings are those of spacy_coref.S2ECoref.v2.

    features (bool): use the features (False: the v2 model).
    feature_width (int): width of the mention feature vectors.
    features_only (bool): train the feature weights alone, the s2e weights staying as they
        were initialised (e.g. from a trained v2 head): a round that adds the features to a
        trained model without refitting what it has already fitted to the training data.
    feature_groups (Sequence[str]): the features trained: "mention" (the embedded attributes,
        in the mention score and the bilinear antecedent score) and "pair" (the scalars of
        distances, matches, speakers, binding and nesting). A group left out keeps its zero
        weights, which is how the groups are compared (an ablation).
    RETURNS (Model): docs -> List[CorefScores].
    """
    if feature_width < 1:
        raise ValueError(Errors.CE268.format(option="feature_width", value=feature_width))
    settings = dict(locals())
    unknown = [g for g in feature_groups if g not in FEATURE_GROUPS]
    if unknown:
        raise ValueError(Errors.CE116.format(unknown=unknown, valid=list(FEATURE_GROUPS)))
    for name in ("features", "feature_width", "features_only", "feature_groups"):
        settings.pop(name)
    model = build_s2e_coref_v2(**settings)
    # Not in `head_cfg`: loading a v2 model's bytes into this model replaces `head_cfg`.
    model.attrs["feature_width"] = feature_width if features else 0
    model.attrs["features_only"] = features and features_only
    model.attrs["frozen_features"] = [
        name for group in FEATURE_GROUPS if group not in feature_groups
        for name in FEATURE_GROUP_PARAMETERS[group]
    ]
    return model


@registry.architectures("spacy_coref.S2ECoref.v4")
def build_s2e_coref_v4(
    tok2vec: Model[List[Doc], List[Floats2d]],
    hidden_width: int = 256,
    dropout: float = 0.3,
    top_lambda: float = 0.4,
    max_antecedents: int = 50,
    antecedent_window: int = 500,
    entity_equalization: bool = True,
    ee_chunk: int = 1024,
    ee_mean: bool = False,
    candidates: CandidateSource = "rules",
    candidates_key: str = "coref_mentions",
    max_span_width: int = 10,
    mixed_precision: bool = False,
    schemes: Sequence[str] = (),
    containing_antecedents: bool = False,
    features: bool = True,
    feature_width: int = 32,
    features_only: bool = False,
    feature_groups: Sequence[str] = FEATURE_GROUPS,
    feature_annotations: str = "doc",
) -> Model[InT, OutT]:
    """spacy_coref.S2ECoref.v3 with a choice of what the features read. The weights are v3's.

    feature_annotations (str): "doc": everything the doc has (parse, tags, morphology,
        entities); "text": the words, sentence boundaries and speakers alone, whatever else
        the doc has, for a model trained without a parser (the fast pipeline).
    RETURNS (Model): docs -> List[CorefScores].
    """
    if feature_annotations not in FEATURE_ANNOTATIONS:
        raise ValueError(Errors.CE393.format(value=feature_annotations,
                                             options=", ".join(FEATURE_ANNOTATIONS)))
    settings = dict(locals())
    settings.pop("feature_annotations")
    model = build_s2e_coref_v3(**settings)
    model.attrs["feature_annotations"] = feature_annotations
    return model


@registry.architectures("spacy_coref.S2ECoref.v1")
def build_s2e_coref(
    tok2vec: Model[List[Doc], List[Floats2d]],
    hidden_width: int = 256,
    dropout: float = 0.3,
    top_lambda: float = 0.4,
    max_antecedents: int = 50,
    antecedent_window: int = 500,
    entity_equalization: bool = True,
    ee_chunk: int = 1024,
    ee_mean: bool = False,
    candidates: CandidateSource = "rules",
    candidates_key: str = "coref_mentions",
    max_span_width: int = 10,
    mixed_precision: bool = False,
) -> Model[InT, OutT]:
    """The s2e coreference model without annotation schemes, where an antecedent may contain
    its mention. The settings are those of spacy_coref.S2ECoref.v2."""
    settings = dict(locals())  # exactly the arguments above
    return build_s2e_coref_v2(**settings, schemes=(), containing_antecedents=True)


def scheme_indices(model: Model, docs: InT) -> List[int]:
    """The index of each doc's annotation scheme among the model's `schemes`: the scheme the doc
    names, else the model's default, else the first. A model without schemes ignores them."""
    schemes = model.attrs.get("schemes", [])
    if not schemes:
        return [0] * len(docs)
    default = model.attrs.get("default_scheme") or schemes[0]
    indices = []
    for doc in docs:
        name = get_scheme(doc) or default
        if name not in schemes:
            raise ValueError(Errors.CE106.format(scheme=name, schemes=schemes))
        indices.append(schemes.index(name))
    return indices


def ensure_head(model: Model, n_in: int) -> None:
    """Build the torch head once the input width is known (at initialization, or from the
    pipe's cfg before weights are loaded)."""
    if model.has_ref("head"):
        return
    feature_width = model.attrs.get("feature_width", 0)
    module = S2ECorefHead(n_in, **model.attrs["head_cfg"], feature_width=feature_width)
    frozen = set(model.attrs.get("frozen_features", []))
    features_only = model.attrs.get("features_only", False)
    for name, param in module.named_parameters():
        # no gradient, so Thinc's optimizer leaves them as they are
        if name in frozen or (features_only and not name.startswith(FEATURE_PREFIX)):
            param.requires_grad_(False)
    head = PyTorchWrapper_v2(
        module,
        convert_inputs=_convert_inputs,
        convert_outputs=_convert_outputs,
        mixed_precision=model.attrs["mixed_precision"],
    )
    model.layers.append(head)
    model.set_ref("head", head)
    model.set_dim("nI", n_in)


def head_module(model: Model) -> S2ECorefHead:
    """The torch head inside a built s2e model (after `ensure_head`)."""
    return model.get_ref("head").shims[0]._model


def init(model: Model, X: Optional[InT] = None, Y: Any = None) -> Model:
    tok2vec = model.get_ref("tok2vec")
    if X is not None:
        tok2vec.initialize(X=X)
    if tok2vec.has_dim("nO"):
        n_in = tok2vec.get_dim("nO")
    elif X is not None:
        # e.g. a CNN chain without a declared width: infer it from a forward pass
        n_in = tok2vec.predict(X)[0].shape[1]
    else:
        raise ValueError(Errors.CE100.format(layer=tok2vec.name))
    ensure_head(model, n_in)
    return model


def forward(model: Model[InT, OutT], docs: InT, is_train: bool) -> Tuple[OutT, Callable]:
    with section(HEAD):
        return _forward(model, docs, is_train)


def _forward(model: Model[InT, OutT], docs: InT, is_train: bool) -> Tuple[OutT, Callable]:
    if not model.has_ref("head"):
        raise ValueError(Errors.CE101)
    vectors, backprop_tok2vec = model.get_ref("tok2vec")(docs, is_train)
    analyses = analyses_of(model, docs, both=not is_train)
    inputs = head_inputs(model, docs, vectors, analyses)
    candidates = inputs[1]
    outputs, backprop_head = model.get_ref("head")(inputs, is_train)
    ops = model.ops
    scores = [
        CorefScores(ops.asarray2i(cands), *out, analysis=analysis)
        for cands, out, analysis in zip(candidates, outputs, analyses)
    ]

    def backprop(d_scores: GradT) -> List[Floats2d]:
        return backprop_tok2vec(backprop_head(d_scores))

    return scores, backprop


def analyses_of(model: Model, docs: InT, both: bool = True) -> List[Optional[MentionAnalysis]]:
    """Each doc's analysis of its candidates, shared by the features and the decoding, where
    the features read the doc itself (not a text view of it); None for the others. `both`:
    read the spans for the decoding too at once (prediction; see `MentionAnalysis`)."""
    if not model.attrs.get("feature_width") or model.attrs.get("feature_annotations") == "text":
        return [None] * len(docs)
    return [
        MentionAnalysis(doc, doc_candidates(doc, **model.attrs["candidates"]), both=both)
        for doc in docs
    ]


def head_inputs(
    model: Model,
    docs: InT,
    vectors: List[Floats2d],
    analyses: Optional[List[Optional[MentionAnalysis]]] = None,
) -> tuple:
    """What the model's "head" layer takes for these docs and their token vectors: the
    vectors, each doc's candidates, scheme index and, for a model with features, candidate
    attributes (from the docs' `analyses` where given: `analyses_of`)."""
    if analyses is not None and all(analysis is not None for analysis in analyses):
        candidates = [analysis.spans for analysis in analyses]
    else:
        candidates = [doc_candidates(doc, **model.attrs["candidates"]) for doc in docs]
        analyses = [None] * len(docs)
    schemes = scheme_indices(model, docs)
    attributes = None
    if model.attrs.get("feature_width"):
        if model.attrs.get("feature_annotations") == "text":
            docs = [text_view(doc) for doc in docs]
        attributes = [
            candidate_attributes(doc, c, analysis=analysis)
            for doc, c, analysis in zip(docs, candidates, analyses)
        ]
    return (vectors, candidates, schemes, attributes)


def _convert_inputs(
    model: Model,
    X: Tuple[List[Floats2d], List[Ints2d], List[int], Optional[List[Ints2d]]],
    is_train: bool,
) -> Tuple[ArgsKwargs, Callable[[ArgsKwargs], List[Floats2d]]]:
    vectors, candidates, schemes, attributes = X
    device = model.shims[0].device
    vecs = [xp2torch(v, requires_grad=is_train, device=device) for v in vectors]
    cands = [torch.as_tensor(c, dtype=torch.long, device=device) for c in candidates]
    starts = [c[:, 0] for c in cands]  # [C] each
    ends = [c[:, 1] - 1 for c in cands]  # [C] each, inclusive
    attrs = None
    if attributes is not None:
        attrs = [torch.as_tensor(a, dtype=torch.long, device=device) for a in attributes]

    def reverse(d_inputs: ArgsKwargs) -> List[Floats2d]:
        grads = d_inputs.args[0]
        return [
            model.ops.alloc2f(*v.shape) if g is None else torch2xp(g)
            for v, g in zip(vectors, grads)
        ]

    return ArgsKwargs(args=(vecs, starts, ends, schemes, attrs), kwargs={}), reverse


def _convert_outputs(
    model: Model, X_Ytorch: Tuple[Any, List[DocScores]], is_train: bool
) -> Tuple[List[tuple], Callable[[GradT], ArgsKwargs]]:
    _, outputs = X_Ytorch
    Y = [
        (
            torch2xp(out.mention_scores.detach().float()),
            torch2xp(out.kept),
            torch2xp(out.antecedents),
            torch2xp(out.scores.detach().float()),
        )
        for out in outputs
    ]

    def reverse(d_scores: GradT) -> ArgsKwargs:
        device = model.shims[0].device
        tensors, grads = [], []
        for out, (d_pair, d_mention) in zip(outputs, d_scores):
            for tensor, grad in ((out.scores, d_pair), (out.mention_scores, d_mention)):
                if tensor.numel() and tensor.requires_grad:
                    tensors.append(tensor)
                    grads.append(xp2torch(grad, device=device).to(tensor.dtype))
        if not tensors:
            # Nothing was scored (empty docs): backward through a zero so the shim still works.
            param = next(model.shims[0]._model.parameters())
            tensors, grads = [param.sum() * 0.0], [torch.ones((), device=device)]
        return ArgsKwargs(args=(tensors,), kwargs={"grad_tensors": grads})

    return Y, reverse
