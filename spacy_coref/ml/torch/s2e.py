"""The s2e coreference head (Kirstain et al. 2021; F-COREF, seed 002 section 3.1) with optional
Entity Equalization refinement (seed 001). Plain torch: no spaCy or Thinc imports.

Two additions to the paper's model, both off by default so that older heads compute as before:

* Annotation schemes. Corpora disagree on what a mention is (LitBank marks only people, places,
  organisations and vehicles, singletons included; OntoNotes-style corpora such as OntoGUM
  mark every referring NP and events, singletons excluded). Trained together, the corpora teach
  one head contradictory lessons. With `n_schemes`, each document names its scheme, and a
  per-scheme scale and shift of the token projections (FiLM, initialised to the identity) lets
  the head follow each one; at inference the caller picks the scheme.
* No antecedent that contains its mention (i-within-i: "[a man who lost [his] way]").
* Linguistic features (`feature_width`, spacy_coref.S2ECoref.v3): per-candidate attributes from
  the parse (see `pair_features`) enter the mention and antecedent scores through weights that
  start at zero, so a head loaded from one without features first computes what it did.

Only the tokens that candidates start or end at are projected (O(T) at most); mentions are scored
from their start and end tokens, and antecedents are scored in blocks of queries against a
bounded window of earlier mentions, keeping the top K, so memory is O(M * K) per document, never
a dense T x T or M x M matrix (Entity Equalization works on chunks of at most `ee_chunk`
mentions).
"""
from typing import List, NamedTuple, Optional, Tuple

import torch
from torch import Tensor, nn

from ...errors import Errors
from .constants import MASKED_SCORE, NULL_COLUMN
from .entity_equalization import entity_representations, soft_clusters
from .pair_features import N_ATTRIBUTES, FeatureScorer, KeptFeatures


SCHEME_PARAMETERS = ("scheme_scale", "scheme_shift")
# The scheme parameters enter the scores times this gain: each gets the gradient of its own
# scheme's docs only, and has to move further than the shared weights at the same learning rate
# (with Adam, a parameter moves about one learning rate per step whatever its gradient).
SCHEME_GAIN = 10.0
# The parameters of the linguistic features (spacy_coref.S2ECoref.v3) start with this prefix.
FEATURE_PREFIX = "feature_scorer."
# Pruning keeps at least this many candidates: a short text has more mentions per token than
# the long documents top_lambda is set on ("Jack's brother admires himself.": 3 in 6 tokens).
MIN_KEPT = 20
# Candidates whose mention scores are computed at once.
MENTION_CHUNK = 65536
# The Entity Equalization gate's bias when a head trained without it turns it on: sigmoid(2) =
# 0.88 of each mention's own representation, a mild start short of the sigmoid's flat tail (at
# fine-tuning rates it hardly moves: docs/record/training_rounds.md).
EE_GATE_START_BIAS = 2.0


class DocScores(NamedTuple):
    """What the head returns for one document (tensors on the head's device)."""

    mention_scores: Tensor  # [C] f_m of every candidate
    kept: Tensor  # [M] indices of the kept candidates, in document order
    antecedents: Tensor  # [M, K] index (into kept) of each candidate antecedent, 0 if padding
    scores: Tensor  # [M, 1 + K] F(c, q); null antecedent at NULL_COLUMN, padding MASKED_SCORE


class S2ECorefHead(nn.Module):
    def __init__(
        self,
        n_in: int,
        hidden: int,
        *,
        dropout: float = 0.3,
        top_lambda: float = 0.4,
        max_antecedents: int = 50,
        antecedent_window: int = 500,
        entity_equalization: bool = True,
        ee_chunk: int = 1024,
        ee_mean: bool = False,
        query_block: int = 512,
        n_schemes: int = 0,
        containing_antecedents: bool = True,
        feature_width: int = 0,
    ):
        super().__init__()
        self.top_lambda = top_lambda
        self.max_antecedents = max_antecedents
        self.antecedent_window = antecedent_window
        self.entity_equalization = entity_equalization
        self.ee_chunk = ee_chunk
        self.ee_mean = ee_mean
        self.query_block = query_block
        self.containing_antecedents = containing_antecedents
        self.dropout = nn.Dropout(dropout)
        # One projection computes m_s, m_e, a_s and a_e (each `hidden` wide) for every token.
        self.token_proj = nn.Linear(n_in, 4 * hidden)
        self.act = nn.GELU()
        self.mention_start = nn.Linear(hidden, 1)  # v_s
        self.mention_end = nn.Linear(hidden, 1, bias=False)  # v_e
        self.mention_bilinear = nn.Linear(hidden, hidden, bias=False)  # B_m
        # The four bilinear antecedent terms (start-start, start-end, end-start, end-end) as one
        # [2h, 2h] map: f_a(c, q) = [a_s(c); a_e(c)] . W [a_s(q); a_e(q)].
        self.antecedent_bilinear = nn.Linear(2 * hidden, 2 * hidden)
        # Entity Equalization gate over [g_i; a_i].
        self.ee_gate = nn.Linear(4 * hidden, 2 * hidden)
        # Per-scheme FiLM of the token projections: proj * (1 + g * scale[s]) + g * shift[s]
        # (g = SCHEME_GAIN). Zeros, so a head trained without schemes starts out computing
        # exactly what it computed before.
        if n_schemes:
            self.scheme_scale = nn.Parameter(torch.zeros(n_schemes, 4 * hidden))
            self.scheme_shift = nn.Parameter(torch.zeros(n_schemes, 4 * hidden))
        # Linguistic features (0: none, as v1 and v2): their output weights start at zero.
        self.feature_scorer = FeatureScorer(feature_width) if feature_width else None

    def start_entity_equalization(self) -> None:
        """Start the Entity Equalization gate of a head trained without it: weights zero and
        bias EE_GATE_START_BIAS, so each mention keeps most of its own representation and the
        head first computes nearly what it did (an untrained gate would mix in half of the
        entity's at once)."""
        with torch.no_grad():
            self.ee_gate.weight.zero_()
            self.ee_gate.bias.fill_(EE_GATE_START_BIAS)

    @property
    def n_schemes(self) -> int:
        return self.scheme_scale.shape[0] if hasattr(self, "scheme_scale") else 0

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        """As torch's, but a head saved without schemes or features loads into one with them:
        their parameters keep their values (on a new head, the identity FiLM and zero feature
        scores, so that it computes what the saved head did), to go on training a head."""
        state_dict = dict(state_dict)
        own = self.state_dict()
        for name in SCHEME_PARAMETERS:
            if self.n_schemes and name not in state_dict:
                state_dict[name] = own[name].detach().clone()
        if not any(name.startswith(FEATURE_PREFIX) for name in state_dict):
            for name, value in own.items():
                if name.startswith(FEATURE_PREFIX):
                    state_dict[name] = value.detach().clone()
        return super().load_state_dict(state_dict, strict=strict, assign=assign)

    def forward(
        self,
        vectors: List[Tensor],
        starts: List[Tensor],
        ends: List[Tensor],
        schemes: Optional[List[int]] = None,
        attributes: Optional[List[Tensor]] = None,
    ) -> List[DocScores]:
        """vectors: per doc [T, n_in]; starts/ends: per doc [C] candidate token offsets, end
        inclusive, sorted by (start, end); schemes: per doc the index of its annotation scheme
        (ignored by a head without schemes; default 0); attributes: per doc the candidates'
        [C, N_ATTRIBUTES] int attributes (see `pair_features`; needed by a head with
        features, ignored by one without)."""
        if schemes is None:
            schemes = [0] * len(vectors)
        if self.feature_scorer is None:
            attributes = [None] * len(vectors)
        else:
            _check_attributes(attributes, starts)
        return [
            self._score_doc(x, s, e, scheme, attrs)
            for x, s, e, scheme, attrs in zip(vectors, starts, ends, schemes, attributes)
        ]

    def _score_doc(
        self,
        x: Tensor,
        starts: Tensor,
        ends: Tensor,
        scheme: int = 0,
        attributes: Optional[Tensor] = None,
    ) -> DocScores:
        hidden = self.mention_bilinear.in_features
        # Only the tokens that a candidate starts or ends at are projected: rule-based
        # candidates start at about a quarter of the tokens and end at about as many, and the
        # projection was most of the head's arithmetic. Token starts[i] is row start_rows[i].
        tokens, rows = _touched_tokens(starts, ends)  # [U], [C + C]
        start_rows, end_rows = rows[: starts.shape[0]], rows[starts.shape[0] :]  # [C] each
        proj = self.token_proj(self.dropout(x[tokens]))  # [U, 4h]
        if self.n_schemes:
            scale, shift = self.scheme_scale[scheme], self.scheme_shift[scheme]  # [4h] each
            proj = proj * (1 + SCHEME_GAIN * scale) + SCHEME_GAIN * shift
        m_s, m_e, a_s, a_e = self.act(proj).split(hidden, dim=1)  # each [U, h]
        scorer = self.feature_scorer if attributes is not None else None
        # in chunks of candidates: a fast pipeline's 100,000-word doc has a million, and their
        # [C, h] start and end vectors and [C, attributes, w] feature embeddings at once took
        # gigabytes
        by_token = self._token_mention_terms(m_s, m_e, starts.shape[0])
        scores, vectors = [m_s.new_zeros((0,))], []
        for c0 in range(0, starts.shape[0], MENTION_CHUNK):
            chunk = slice(c0, c0 + MENTION_CHUNK)
            s_rows, e_rows = start_rows[chunk], end_rows[chunk]  # [c] each
            if by_token is None:
                f_c = self._mention_scores(m_s[s_rows], m_e[e_rows])  # [c]
            else:
                f_c = _gathered_mention_scores(m_s, *by_token, s_rows, e_rows)
            if scorer is not None:
                vectors.append(scorer.mention_vectors(attributes[chunk]))  # [c, w]
                f_c = f_c + scorer.mention_scores(vectors[-1])
            scores.append(f_c)
        mention_scores = torch.cat(scores)  # [C]
        kept = self._prune(mention_scores, n_tokens=x.shape[0])  # [M]
        features = None
        if scorer is not None:
            u = torch.cat(vectors) if vectors else scorer.mention_vectors(attributes)  # [C, w]
            features = scorer.kept_features(attributes[kept], u[kept])  # [M, ...]
        g = torch.cat([a_s[start_rows[kept]], a_e[end_rows[kept]]], dim=1)  # [M, 2h]
        f_m = mention_scores[kept]  # [M]
        mention_ends = None if self.containing_antecedents else ends[kept]  # [M]
        antecedents, pair_scores = self._top_antecedents(g, f_m, mention_ends, features)
        if self.entity_equalization and antecedents.shape[1]:
            g = self._equalize(g, antecedents, pair_scores)  # [M, 2h]
            pair_scores = self._rescore(g, f_m, antecedents, pair_scores, features)  # [M, K]
        null = pair_scores.new_zeros((pair_scores.shape[0], 1))  # [M, 1]
        scores = _insert_null(null, pair_scores)  # [M, 1 + K]
        return DocScores(mention_scores, kept, antecedents, scores)

    def _mention_scores(self, ms: Tensor, me: Tensor) -> Tensor:
        # f_m(q) = v_s . m_s + v_e . m_e + m_s^T B_m m_e
        bilinear = (ms * self.mention_bilinear(me)).sum(dim=1)  # [C]
        return self.mention_start(ms).squeeze(1) + self.mention_end(me).squeeze(1) + bilinear

    def _token_mention_terms(
        self, m_s: Tensor, m_e: Tensor, n_candidates: int
    ) -> Optional[Tuple[Tensor, Tensor, Tensor]]:
        """The terms of f_m that depend on one token (v_s . m_s, v_e . m_e, B_m m_e), for every
        projected token, where candidates outnumber them: then the [h, h] map runs once a token
        instead of once a candidate (a fast pipeline's every short span is a candidate, about
        ten a token). None where there are fewer candidates than tokens (rule-based mentions).
        RETURNS ([U] start terms, [U] end terms, [U, h] B_m m_e), or None."""
        if n_candidates <= m_s.shape[0]:
            return None
        start_terms = self.mention_start(m_s).squeeze(1)  # [U]
        end_terms = self.mention_end(m_e).squeeze(1)  # [U]
        return start_terms, end_terms, self.mention_bilinear(m_e)  # [U], [U], [U, h]

    def _prune(self, mention_scores: Tensor, n_tokens: int) -> Tensor:
        n_candidates = mention_scores.shape[0]
        n_keep = min(n_candidates, max(MIN_KEPT, int(self.top_lambda * n_tokens)))
        if n_keep >= n_candidates:
            return torch.arange(n_candidates, device=mention_scores.device)  # [C]
        top = torch.topk(mention_scores.detach(), n_keep).indices  # [M]
        return torch.sort(top).values  # [M] candidates are sorted, so this is document order

    def _top_antecedents(
        self,
        g: Tensor,
        f_m: Tensor,
        mention_ends: Optional[Tensor] = None,
        features: Optional[KeptFeatures] = None,
    ) -> Tuple[Tensor, Tensor]:
        """Score every mention against the `antecedent_window` mentions before it, in blocks of
        queries, and keep the best K. With `mention_ends` (the kept mentions' [M] inclusive end
        tokens), an earlier mention that contains the query is not an antecedent. With
        `features`, their scores are added before the best K are chosen.
        RETURNS ([M, K] indices, [M, K] scores)."""
        n = g.shape[0]
        k = min(self.max_antecedents, self.antecedent_window, max(n - 1, 0))
        if k == 0:
            empty = g.new_zeros((n, 0))
            return empty.long(), empty
        queries = self.antecedent_bilinear(g)  # [M, 2h]
        indices, scores = [], []
        for q0 in range(0, n, self.query_block):
            q1 = min(n, q0 + self.query_block)
            c0 = max(0, q0 - self.antecedent_window)
            block = queries[q0:q1] @ g[c0:q1].T  # [b, c]
            block = block + f_m[q0:q1, None] + f_m[None, c0:q1]  # [b, c]
            q_pos = torch.arange(q0, q1, device=g.device)[:, None]  # [b, 1]
            c_pos = torch.arange(c0, q1, device=g.device)[None, :]  # [1, c]
            allowed = (c_pos < q_pos) & (c_pos >= q_pos - self.antecedent_window)  # [b, c]
            if mention_ends is not None:
                # mentions are sorted by (start, end): an earlier one starts at or before the
                # query, so it contains the query exactly when it ends at or after it
                inside = mention_ends[None, c0:q1] < mention_ends[q0:q1, None]  # [b, c]
                allowed = allowed & inside
            block = block.masked_fill(~allowed, MASKED_SCORE)  # [b, c]
            if features is None:
                top = torch.topk(block, min(k, block.shape[1]), dim=1)
                top_values, top_idx = top.values, top.indices + c0  # [b, k'] each
            else:
                top_values, top_idx = self._top_with_features(block, allowed, features, q0, c0, k)
            top_scores, top_idx = _pad_columns(top_values, top_idx, k)  # [b, K]
            valid = top_idx < q_pos  # [b, K]
            indices.append(torch.where(valid, top_idx, torch.zeros_like(top_idx)))
            scores.append(top_scores.masked_fill(~valid, MASKED_SCORE))
        return torch.cat(indices), torch.cat(scores)  # [M, K], [M, K]

    def _top_with_features(
        self, block: Tensor, allowed: Tensor, features: KeptFeatures, q0: int, c0: int, k: int
    ) -> Tuple[Tensor, Tensor]:
        """The top k' = min(k, c) of a [b, c] block of masked pair scores once the feature
        scores are added. Those are computed for the whole block without gradients (the
        gradient of a lookup per pair would cost more than the rest of the head), then again,
        with gradients, for the k' pairs kept. RETURNS ([b, k'] scores, [b, k'] indices)."""
        scorer = self.feature_scorer
        assert scorer is not None, "features come from the head's feature scorer"
        q1 = q0 + block.shape[0]
        with torch.no_grad():
            extra = scorer.block_scores(features, q0, q1, c0)  # [b, c]
        top = torch.topk(block + extra, min(k, block.shape[1]), dim=1)
        top_idx = top.indices + c0  # [b, k']
        values = torch.gather(block, 1, top.indices)  # [b, k']
        values = values + scorer.gathered_scores(features, q0, top_idx)  # [b, k']
        masked = ~torch.gather(allowed, 1, top.indices)  # [b, k']
        return values.masked_fill(masked, MASKED_SCORE), top_idx

    def _equalize(self, g: Tensor, antecedents: Tensor, pair_scores: Tensor) -> Tensor:
        """Refine mention representations with their soft entity's representation."""
        probs = torch.softmax(_insert_null(pair_scores.new_zeros((g.shape[0], 1)), pair_scores), 1)
        refined = []
        for c0 in range(0, g.shape[0], self.ee_chunk):
            c1 = min(g.shape[0], c0 + self.ee_chunk)
            local = antecedents[c0:c1] - c0  # [n, K]
            real = pair_scores[c0:c1] > MASKED_SCORE / 2  # [n, K]
            valid = ((local >= 0) & real).to(probs.dtype)  # [n, K]
            q = soft_clusters(probs[c0:c1], local, valid)  # [n, n]
            a = entity_representations(q, g[c0:c1], mean=self.ee_mean)  # [n, 2h]
            gate = torch.sigmoid(self.ee_gate(torch.cat([g[c0:c1], a], dim=1)))  # [n, 2h]
            refined.append(gate * g[c0:c1] + (1 - gate) * a)
        return torch.cat(refined)  # [M, 2h]

    def _rescore(
        self,
        g: Tensor,
        f_m: Tensor,
        antecedents: Tensor,
        old_scores: Tensor,
        features: Optional[KeptFeatures] = None,
    ) -> Tensor:
        """F(c, q) again for the same (query, antecedent) pairs, from refined representations
        (the feature scores do not depend on them, and are added again).
        Each block of queries is scored against the window of mentions its antecedents lie in
        by one matrix product, and the K scores are then picked out: far cheaper than gathering
        K antecedent vectors per query."""
        queries = self.antecedent_bilinear(g)  # [M, 2h]
        scorer = self.feature_scorer if features is not None else None
        out = []
        for q0 in range(0, g.shape[0], self.query_block):
            q1 = min(g.shape[0], q0 + self.query_block)
            ants = antecedents[q0:q1]  # [b, K]
            c0 = int(ants.min())
            f_a = queries[q0:q1] @ g[c0:q1].T  # [b, c]
            f_a = torch.gather(f_a, 1, ants - c0)  # [b, K]
            scores = f_a + f_m[q0:q1, None] + f_m[ants]  # [b, K]
            if scorer is not None and features is not None:
                scores = scores + scorer.gathered_scores(features, q0, ants)  # [b, K]
            out.append(scores)
        scores = torch.cat(out)  # [M, K]
        return scores.masked_fill(old_scores <= MASKED_SCORE / 2, MASKED_SCORE)


def _check_attributes(attributes: Optional[List[Tensor]], starts: List[Tensor]) -> None:
    """A head with features needs the [C, N_ATTRIBUTES] attributes of each doc's candidates."""
    attributes = [] if attributes is None else attributes
    for i, doc_starts in enumerate(starts):
        attrs = attributes[i] if i < len(attributes) else None
        expected = (len(doc_starts), N_ATTRIBUTES)
        if attrs is None or tuple(attrs.shape) != expected:
            found = "none" if attrs is None else f"shape {tuple(attrs.shape)}"
            raise ValueError(Errors.CE115.format(i=i, expected=expected, found=found))


def _touched_tokens(starts: Tensor, ends: Tensor) -> Tuple[Tensor, Tensor]:
    """The tokens that candidates start or end at, in order, and the row of each start and end
    among them. RETURNS ([U] token indices, [C + C] rows of starts then ends)."""
    return torch.unique(torch.cat([starts, ends]), sorted=True, return_inverse=True)


def _gathered_mention_scores(
    m_s: Tensor, start_terms: Tensor, end_terms: Tensor, end_maps: Tensor, starts: Tensor,
    ends: Tensor,
) -> Tensor:
    """f_m of the candidates from the terms of `_token_mention_terms`: the same sum as
    `_mention_scores`, read off by each candidate's start and end token. RETURNS [c]."""
    bilinear = (m_s[starts] * end_maps[ends]).sum(dim=1)  # [c]
    return start_terms[starts] + end_terms[ends] + bilinear


def _insert_null(null: Tensor, pair_scores: Tensor) -> Tensor:
    assert NULL_COLUMN == 0, "null antecedent is expected in the first column"
    return torch.cat([null, pair_scores], dim=1)  # [M, 1 + K]


def _pad_columns(values: Tensor, indices: Tensor, k: int) -> Tuple[Tensor, Tensor]:
    """Pad top-k results of a narrow first block (fewer candidates than K) to K columns."""
    missing = k - values.shape[1]
    if missing <= 0:
        return values, indices
    pad_v = values.new_full((values.shape[0], missing), MASKED_SCORE)
    # An index past every query marks the column as padding (filtered by `valid`).
    pad_i = indices.new_full((indices.shape[0], missing), torch.iinfo(indices.dtype).max)
    return torch.cat([values, pad_v], dim=1), torch.cat([indices, pad_i], dim=1)
