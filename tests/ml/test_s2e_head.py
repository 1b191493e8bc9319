"""The torch s2e head and Entity Equalization, checked against direct (dense, loop) computations."""
import pytest
import torch

from spacy_coref.ml.torch.constants import MASKED_SCORE, NULL_COLUMN
from spacy_coref.ml.torch.entity_equalization import entity_representations, soft_clusters
from spacy_coref.ml.torch.s2e import MIN_KEPT, S2ECorefHead


def _random_doc(n_tokens=30, n_in=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n_tokens, n_in, generator=g)
    starts = torch.arange(0, n_tokens, 2)
    ends = torch.minimum(starts + (starts % 3), torch.tensor(n_tokens - 1))
    return x, starts, ends


def _dense_scores(head: S2ECorefHead, x, starts, ends):
    """F(c, q) for every pair by the formula of the paper, with no pruning or windows."""
    h = head.mention_bilinear.in_features
    m_s, m_e, a_s, a_e = head.act(head.token_proj(x)).split(h, dim=1)
    f_m = head._mention_scores(m_s[starts], m_e[ends])
    g = torch.cat([a_s[starts], a_e[ends]], dim=1)
    f_a = head.antecedent_bilinear(g) @ g.T  # [q, c]
    return f_m, f_a + f_m[:, None] + f_m[None, :]


def test_scores_match_the_formula_without_pruning():
    torch.manual_seed(0)
    head = S2ECorefHead(16, 8, dropout=0.0, top_lambda=1.0, max_antecedents=100,
                        antecedent_window=100, entity_equalization=False, query_block=4)
    head.eval()
    x, starts, ends = _random_doc()
    out = head([x], [starts], [ends])[0]
    f_m, dense = _dense_scores(head, x, starts, ends)
    assert torch.allclose(out.mention_scores, f_m, atol=1e-5)
    n = len(starts)
    assert out.kept.tolist() == list(range(n))
    assert out.scores[:, NULL_COLUMN].abs().max() == 0
    for q in range(n):
        for k, c in enumerate(out.antecedents[q].tolist()):
            score = out.scores[q, k + 1]
            if score > MASKED_SCORE / 2:
                assert c < q
                assert torch.allclose(score, dense[q, c], atol=1e-4)
        # every earlier mention is among the antecedents exactly once
        real = {c for k, c in enumerate(out.antecedents[q].tolist()) if out.scores[q, k + 1] > MASKED_SCORE / 2}
        assert real == set(range(q))


def test_window_top_k_and_pruning_bound_the_pairs():
    head = S2ECorefHead(16, 8, top_lambda=0.25, max_antecedents=3, antecedent_window=5,
                        query_block=3, entity_equalization=True, ee_chunk=4)
    x, starts, ends = _random_doc(n_tokens=120)
    out = head([x], [starts], [ends])[0]
    assert len(out.kept) == 30  # 0.25 * 120 tokens
    assert out.scores.shape == (30, 4)
    positions = torch.arange(30)[:, None]
    real = out.scores[:, 1:] > MASKED_SCORE / 2
    assert (out.antecedents[real] < positions.expand_as(real)[real]).all()
    assert (out.antecedents[real] >= (positions - 5).expand_as(real)[real]).all()


def test_soft_clusters_solve_the_fixed_point():
    torch.manual_seed(1)
    n, k = 7, 3
    probs = torch.softmax(torch.randn(n, k + 1), dim=1)
    ants = torch.stack([torch.clamp(torch.arange(i - k, i).flip(0), min=0) for i in range(n)])
    valid = (torch.arange(n)[:, None] - torch.arange(1, k + 1)[None, :] >= 0).float()
    q = soft_clusters(probs, ants, valid)
    # Q = P' Q + D, rebuilt with loops
    p_prime = torch.zeros(n, n)
    lost = torch.zeros(n)
    for i in range(n):
        for j in range(k):
            if valid[i, j]:
                p_prime[i, ants[i, j]] += probs[i, j + 1]
            else:
                lost[i] += probs[i, j + 1]
    d = torch.diag(probs[:, 0] + lost)
    assert torch.allclose(q, p_prime @ q + d, atol=1e-5)
    assert torch.allclose(q.sum(dim=1), torch.ones(n), atol=1e-5)
    assert torch.allclose(q, torch.tril(q))
    g = torch.randn(n, 5)
    a = entity_representations(q, g)
    for i in range(n):
        expected = sum(q[i, j] * sum(q[l, j] * g[l] for l in range(i + 1)) for j in range(n))
        assert torch.allclose(a[i], expected, atol=1e-5)


def test_the_mean_entity_representation_does_not_grow_with_the_entity():
    # hard clusters: mentions 0, 2, 4 one entity, 1 and 3 another
    q = torch.zeros(5, 5)
    for i, first in enumerate([0, 1, 0, 1, 0]):
        q[i, first] = 1.0
    g = torch.randn(5, 3)
    summed = entity_representations(q, g)
    mean = entity_representations(q, g, mean=True)
    assert torch.allclose(summed[4], g[0] + g[2] + g[4])  # grows with the entity
    assert torch.allclose(mean[4], (g[0] + g[2] + g[4]) / 3)
    assert torch.allclose(mean[3], (g[1] + g[3]) / 2) and torch.allclose(mean[0], g[0])
    # the same entity of copies of one vector: the mean is that vector whatever its size
    same = entity_representations(q, torch.ones(5, 3), mean=True)
    assert torch.allclose(same, torch.ones(5, 3))


def test_a_head_with_the_mean_scores_otherwise_than_with_the_sum():
    x, starts, ends = _random_doc()
    scores = []
    for mean in (False, True):
        torch.manual_seed(0)
        head = S2ECorefHead(16, 8, dropout=0.0, top_lambda=1.0, entity_equalization=True,
                            ee_mean=mean)
        head.eval()
        scores.append(head([x], [starts], [ends])[0].scores)
    assert scores[0].shape == scores[1].shape and not torch.allclose(scores[0], scores[1])


@pytest.mark.parametrize("n_tokens,kept", [(30, MIN_KEPT), (100, 40)])
def test_pruning_keeps_lambda_t_and_at_least_min_kept_best_candidates(n_tokens, kept):
    # a short text keeps MIN_KEPT candidates, more than lambda * T; a long one lambda * T
    head = S2ECorefHead(16, 8, top_lambda=0.4)
    scores = torch.randn(2 * n_tokens)
    pruned = head._prune(scores, n_tokens=n_tokens)
    assert pruned.tolist() == sorted(torch.topk(scores, kept).indices.tolist())


@pytest.mark.parametrize("n_tokens,n_cands", [(0, 0), (1, 1), (3, 0), (2, 2), (30, 25)])
def test_tiny_docs(n_tokens, n_cands):
    head = S2ECorefHead(16, 8)
    x = torch.randn(n_tokens, 16, requires_grad=True)
    idx = torch.arange(n_cands)
    out = head([x], [idx], [idx])[0]
    kept = min(n_cands, max(MIN_KEPT, int(0.4 * n_tokens)))
    assert out.scores.shape == (kept, 1 + max(0, kept - 1))
    assert torch.isfinite(out.scores).all()


def test_gradients_reach_the_token_vectors():
    head = S2ECorefHead(16, 8, entity_equalization=True)
    x, starts, ends = _random_doc()
    x.requires_grad_(True)
    out = head([x], [starts], [ends])[0]
    (out.scores[:, 1:].clamp(min=-10).sum() + out.mention_scores.sum()).backward()
    assert x.grad is not None and x.grad.abs().sum() > 0
    assert head.ee_gate.weight.grad.abs().sum() > 0


def _real_pairs(out):
    """(query, antecedent) index pairs that the head scored."""
    real = out.scores[:, 1:] > MASKED_SCORE / 2
    return {(q, int(out.antecedents[q, k])) for q, k in real.nonzero().tolist()}


def test_no_antecedent_contains_its_mention():
    # [0 [1 2] 3 4] [5] [6 7]: (0, 4) contains (1, 2); (1, 2) does not contain (0, 4)
    starts, ends = torch.tensor([0, 1, 5, 6]), torch.tensor([4, 2, 5, 7])
    x = torch.randn(8, 16)
    kwargs = dict(dropout=0.0, top_lambda=1.0, max_antecedents=10, entity_equalization=False)
    allowed = S2ECorefHead(16, 8, containing_antecedents=True, **kwargs)
    pairs = _real_pairs(allowed([x], [starts], [ends])[0])
    assert (1, 0) in pairs
    strict = S2ECorefHead(16, 8, containing_antecedents=False, **kwargs)
    strict.load_state_dict(allowed.state_dict())
    out = strict([x], [starts], [ends])[0]
    assert _real_pairs(out) == pairs - {(1, 0)}
    # the remaining pairs keep their scores
    ref = allowed([x], [starts], [ends])[0]
    for q, c in _real_pairs(out):
        k_out = out.antecedents[q].tolist().index(c)
        k_ref = ref.antecedents[q].tolist().index(c)
        assert torch.allclose(out.scores[q, k_out + 1], ref.scores[q, k_ref + 1])


def test_a_new_scheme_starts_as_the_plain_head_and_schemes_then_differ():
    torch.manual_seed(3)
    kwargs = dict(dropout=0.0, top_lambda=1.0, entity_equalization=False)
    plain = S2ECorefHead(16, 8, **kwargs)
    schemed = S2ECorefHead(16, 8, n_schemes=2, **kwargs)
    # a head saved without schemes loads into one with schemes (the FiLM starts at identity)
    schemed.load_state_dict(plain.state_dict())
    x, starts, ends = _random_doc()
    expected = plain([x], [starts], [ends])[0].scores
    for scheme in (0, 1):
        got = schemed([x], [starts], [ends], [scheme])[0].scores
        assert torch.equal(got, expected)
    with torch.no_grad():
        schemed.scheme_shift[1].normal_()
    assert torch.equal(schemed([x], [starts], [ends], [0])[0].scores, expected)
    changed = schemed([x], [starts], [ends], [1])[0].scores
    assert not torch.allclose(changed, expected)
    # a batch mixing schemes scores each doc with its own
    both = schemed([x, x], [starts, starts], [ends, ends], [1, 0])
    assert torch.equal(both[0].scores, changed) and torch.equal(both[1].scores, expected)


def test_a_head_with_schemes_does_not_load_other_shapes():
    two = S2ECorefHead(16, 8, n_schemes=2)
    three = S2ECorefHead(16, 8, n_schemes=3)
    with pytest.raises(RuntimeError, match="scheme_scale"):
        three.load_state_dict(two.state_dict())


def test_more_candidates_than_tokens_score_as_the_formula():
    """Every span of up to 3 tokens (the fast pipeline's candidates outnumber its tokens): the
    terms of one token are computed once a token and read off, with the same scores."""
    torch.manual_seed(0)
    head = S2ECorefHead(16, 8, dropout=0.0, top_lambda=1.0, entity_equalization=False).eval()
    x = torch.randn(12, 16)
    spans = [(s, e) for s in range(12) for e in range(s, min(12, s + 3))]
    starts, ends = (torch.tensor(column) for column in zip(*spans))
    assert len(spans) > len(x)
    with torch.no_grad():
        out = head([x], [starts], [ends])[0]
        f_m, _ = _dense_scores(head, x, starts, ends)
    assert torch.allclose(out.mention_scores, f_m, atol=1e-5)


def test_only_the_tokens_candidates_start_or_end_at_are_projected():
    """Rule-based candidates touch few tokens: the projection runs on those alone, and the
    scores are the formula's over every token's projection (gradients reach only them)."""
    torch.manual_seed(0)
    head = S2ECorefHead(16, 8, dropout=0.0, top_lambda=1.0, entity_equalization=False).eval()
    x = torch.randn(50, 16, requires_grad=True)
    starts, ends = torch.tensor([3, 3, 10, 40, 44]), torch.tensor([3, 5, 12, 44, 44])
    projected = []
    hook = head.token_proj.register_forward_hook(lambda _, args, __: projected.append(args[0]))
    out = head([x], [starts], [ends])[0]
    hook.remove()
    assert [rows.shape[0] for rows in projected] == [6]  # tokens 3, 5, 10, 12, 40, 44
    f_m, dense = _dense_scores(head, x, starts, ends)
    assert torch.allclose(out.mention_scores, f_m, atol=1e-5)
    for q in range(len(starts)):
        for k, c in enumerate(out.antecedents[q].tolist()):
            if out.scores[q, k + 1] > MASKED_SCORE / 2:
                assert torch.allclose(out.scores[q, k + 1], dense[q, c], atol=1e-4)
    (out.scores[:, 1:].clamp(min=-10).sum() + out.mention_scores.sum()).backward()
    touched = x.grad.abs().sum(dim=1) > 0
    assert touched.nonzero().flatten().tolist() == [3, 5, 10, 12, 40, 44]


def test_the_architectures_hand_the_mean_to_the_head():
    from spacy_coref.ml.s2e_coref import build_s2e_coref_v4
    from thinc.api import Linear

    off = build_s2e_coref_v4(Linear(4, 4), entity_equalization=True)
    on = build_s2e_coref_v4(Linear(4, 4), entity_equalization=True, ee_mean=True)
    assert off.attrs["head_cfg"]["ee_mean"] is False and on.attrs["head_cfg"]["ee_mean"] is True
