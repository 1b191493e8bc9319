"""Dev CoNLL F1 (LitBank, OntoGUM) and GAP F1 of a trained pipeline for other decoding settings,
scoring each dev doc once: the model's antecedent scores are kept and only the decoding is
repeated, so a sweep of many settings costs one pass of the model.

    python scripts/decoding_sweep.py [--model default] [--top-lambda 0.4] [--scores PATH]
        [--set MODULE.NAME=EXPR] SETTING ...

SETTING is comma-separated key=value pairs of `decode_clusters` options, e.g.
`null=-0.5,constraints=binding` (constraints joined by "+", or "none"); `pronoun_null=-0.75`
gives it/its/itself and they/them/their/theirs/themselves that null score
(`null_scores_by_form`; "none": no form has its own). STEP.NAME=VALUE sets a setting of a
decoding step (an argument of its registered function `spacy_coref.decode.STEP.v1`), e.g.
`other_heads.margin=0.5` or `salience.scale=1`, and STEP.NAME.KEY=VALUE one entry of a setting
that is a dict, e.g. `salience.weights.subject=1.5`; VALUE is a Python literal. The step is the
pipeline's own (its decoder's, `CorefCluster.current_decoder`) with that setting replaced and
its other settings kept; a step that the decoding does not run is added to it. An empty SETTING
("") is the model's own decoding, which every unnamed option keeps. Reads corpus/dev and
corpus/gap-dev (`spacy project run convert`). --top-lambda: the candidates kept per token when
scoring (the model's own setting by default). --scores PATH keeps the scored dev docs (and the
pipeline's decoder) in a pickle and reads them from there on the next run (about 35 s saved
each time; delete it when the model, the top lambda or the corpus changes). --set
MODULE.NAME=EXPR (repeatable) applies to every SETTING: where MODULE is a decoding step and NAME
one of its settings, it sets that setting of the pipeline's step to EXPR's value (evaluated in
the step's module), e.g. `--set "other_heads.margin=OTHER_HEAD_MARGIN / 2"`; else it sets a
constant of a module of `spacy_coref.decoding.steps`, `spacy_coref.decoding` or
`spacy_coref.linguistics` (and the package's modules that imported it by name) before decoding,
to try a rule's variant on the same scores, e.g.
`--set "mention_analysis.PLACE_ADVERBS=frozenset()"`. A constant that a step reads when it is
built (such as `other_heads.OTHER_HEAD_MARGIN`, the default of `other_heads.margin`) would not
reach the pipeline's steps: it is refused, naming the step's settings.
"""
import ast
import importlib
import inspect
import pickle
import sys
import time
from pathlib import Path

from spacy.util import registry

from spacy_coref.decoding import Decoder, registered_steps
from spacy_coref.decoding.decoder import STEP_FUNCTION, shortcut_decoder
from spacy_coref.formats import read_docs
from spacy_coref.linguistics.mention_classes import NEUTER_PLURAL_PRONOUNS
from spacy_coref.training.evaluation import (
    _conll_scores, _gap_scores, load_coref_nlp, redecode_docs, scored_docs,
)

OPTIONS = ("null", "constraints", "pronoun_null")


def step_function(name):
    """The registered function of decoding step `name` and its settings (its arguments)."""
    known = registered_steps()
    if name not in known:
        raise SystemExit(f"unknown decoding step {name!r}: one of {known}")
    make = registry.misc.get(STEP_FUNCTION.format(name=name))
    return make, list(inspect.signature(make).parameters)


def step_change(target, value):
    """(step, setting, key, value) of `target` STEP.NAME or STEP.NAME.KEY, checked."""
    step, _, rest = target.partition(".")
    setting, _, key = rest.partition(".")
    _, settings = step_function(step)
    if setting not in settings:
        has = f"one of {settings}" if settings else "it has none"
        raise SystemExit(f"decoding step {step!r} has no setting {setting!r}: {has}")
    return step, setting, key or None, value


def with_setting(step, setting, key, value):
    """`step` built again by its registered function with `setting` (or its entry `key`) set
    to `value` and its other settings those of `step`."""
    make, settings = step_function(step.name)
    unread = [name for name in settings if not hasattr(step, name)]
    if unread:
        raise SystemExit(f"decoding step {step.name!r} keeps no attribute for its setting(s) "
                         f"{unread}: its settings cannot be read back")
    kwargs = {name: getattr(step, name) for name in settings}
    if key is not None:
        if not isinstance(kwargs[setting], dict):
            raise SystemExit(f"{step.name}.{setting} is not a dict: it has no entry {key!r}")
        value = {**kwargs[setting], key: value}
    kwargs[setting] = value
    try:
        return make(**kwargs)
    except (TypeError, ValueError) as e:
        raise SystemExit(f"{step.name}.{setting}: {e}") from None


def decoder_with(base, names, changes=()):
    """The decoder of the steps `names` taken from `base` (`Decoder.only`: its own steps with
    their settings, the defaults of those it lacks), with the step settings `changes`
    ((step, setting, key, value) each) replaced; a changed step not in `names` is added."""
    names = list(names)
    names += [step for step, *_ in changes if step not in names]
    decoder = base if names == base.names else base.only(names)
    steps = []
    for step in decoder.steps:
        for name, setting, key, value in changes:
            if name == step.name:
                step = with_setting(step, setting, key, value)
        steps.append(step)
    return Decoder(steps)


def parse_setting(text, own):
    """The decoding options of SETTING `text`, the model's `own` for those it leaves out;
    "steps": the step settings it changes, (step, setting, key, value) each."""
    setting = dict(own, steps=[])
    for item in filter(None, text.split(",")):
        key, value = item.split("=")
        if "." in key:
            try:
                literal = ast.literal_eval(value)
            except (ValueError, SyntaxError):
                raise SystemExit(f"{key}: {value!r} is not a Python literal") from None
            setting["steps"].append(step_change(key, literal))
        elif key not in OPTIONS:
            raise SystemExit(f"unknown setting {key!r}: one of {list(OPTIONS)}, or STEP.NAME "
                             f"for a step's setting (steps: {registered_steps()})")
        elif key == "constraints":
            setting[key] = [c for c in value.split("+") if c and c != "none"]
        elif key == "pronoun_null":
            by_form = {} if value == "none" else dict.fromkeys(NEUTER_PLURAL_PRONOUNS, float(value))
            setting["by_form"] = by_form
        else:
            setting[key] = float(value)
    return setting


def score(model, top_lambda):
    """The dev sets (references), the model's docs for them, each doc's scores (by position),
    the component's decoding settings and its decoder."""
    nlp = load_coref_nlp(model)
    inner = nlp.get_pipe("coref").inner
    cluster = inner.get_pipe("coref_cluster")
    if top_lambda is not None:  # the head is built from the config: set it in place
        cluster.model.get_ref("head").shims[0]._model.top_lambda = top_lambda
    sets = {name: read_docs(f"corpus/dev/{name}.spacy") for name in ("litbank", "gum")}
    sets["gap"] = read_docs("corpus/gap-dev/gap.spacy")
    preds, scores = {}, {}
    start = time.perf_counter()
    for name, refs in sets.items():
        scored = scored_docs(nlp, refs)
        preds[name] = [doc for doc, _ in scored]
        scores[name] = [doc_scores for _, doc_scores in scored]
    print(f"scored in {time.perf_counter() - start:.0f} s", flush=True)
    return sets, preds, scores, dict(cluster.cfg), cluster.current_decoder()


# the packages whose modules' constants --set changes, a step's own module first
CONSTANT_PACKAGES = (
    "spacy_coref.decoding.steps", "spacy_coref.decoding", "spacy_coref.linguistics",
)


def constant_module(module_name):
    """The module `module_name` of the first of CONSTANT_PACKAGES that has one."""
    for package in CONSTANT_PACKAGES:
        try:
            return importlib.import_module(f"{package}.{module_name}")
        except ModuleNotFoundError as e:
            if e.name != f"{package}.{module_name}":
                raise
    raise SystemExit(f"no module {module_name!r} in {', '.join(CONSTANT_PACKAGES)}")


def built_from(module, name):
    """The settings (STEP.NAME) of the registered steps with settings that read constant `name`
    of `module` when they are built: as a setting's default (other_heads.OTHER_HEAD_MARGIN), or
    in the registered function or the step's constructor (the weights that salience.weights
    updates)."""
    value = getattr(module, name)
    found = []
    for step in registered_steps():
        make, settings = step_function(step)
        if not settings or getattr(sys.modules[make.__module__], name, None) is not value:
            continue
        signature = inspect.signature(make)
        reads = set(make.__code__.co_names)
        constructor = getattr(signature.return_annotation, "__init__", None)
        reads |= set(getattr(getattr(constructor, "__code__", None), "co_names", ()))
        defaults = [parameter.default for parameter in signature.parameters.values()]
        if name in reads or any(default is value for default in defaults):
            found += [f"{step}.{setting}" for setting in settings]
    return found


def set_constant(assignment, decoder):
    """`--set MODULE.NAME=EXPR`: a setting of the decoder's step MODULE, or a decoding
    module's constant, set to EXPR's value. Returns the decoder (with the step replaced)."""
    target, expr = assignment.split("=", 1)
    module_name, name = target.rsplit(".", 1)
    if module_name in registered_steps() and name in step_function(module_name)[1]:
        make, _ = step_function(module_name)
        value = eval(expr, vars(sys.modules[make.__module__]))
        return decoder_with(decoder, decoder.names, [step_change(target, value)])
    module = constant_module(module_name)
    if not hasattr(module, name):
        step = module_name in registered_steps()
        settings = f" and step {module_name!r} has no setting {name!r}" if step else ""
        raise SystemExit(f"{module.__name__} has no {name}{settings}")
    settings = built_from(module, name)
    if settings:
        raise SystemExit(f"--set {target}: the decoding steps read it when they are built; set "
                         f"their settings instead, e.g. --set {settings[0]}=EXPR (of {settings})")
    old, new = getattr(module, name), eval(expr, vars(module))
    for other in list(sys.modules.values()):  # and where it was imported by name
        if getattr(other, "__name__", "").startswith("spacy_coref.") and (
            other is module or getattr(other, name, None) is old
        ):
            setattr(other, name, new)
    return decoder


def main(settings, model="default", top_lambda=None, scores_path=None, assignments=()):
    if scores_path is not None and Path(scores_path).exists():
        with open(scores_path, "rb") as file_:
            kept = pickle.load(file_)
        if len(kept) == 4:  # written before the decoder was kept: the steps' defaults
            kept = (*kept, shortcut_decoder(tuple(kept[3].get("constraints", []))))
            print(f"{scores_path} has no decoder: the steps get their default settings",
                  flush=True)
        sets, preds, scores, cfg, decoder = kept
        print(f"scores read from {scores_path}", flush=True)
    else:
        sets, preds, scores, cfg, decoder = score(model, top_lambda)
        if scores_path is not None:
            with open(scores_path, "wb") as file_:
                pickle.dump((sets, preds, scores, cfg, decoder), file_)
    for assignment in assignments:
        decoder = set_constant(assignment, decoder)
    own = {"null": cfg.get("null_score", 0.0),
           "constraints": list(decoder.names),
           "by_form": dict(cfg.get("null_scores_by_form", {}))}
    for text in settings:
        setting = parse_setting(text, own)
        decode = decoder_with(decoder, setting["constraints"], setting["steps"])
        for name, docs in preds.items():
            redecode_docs(docs, scores[name], cfg, constraints=decode.names,
                          null_score=setting["null"], null_scores_by_form=setting["by_form"],
                          decoder=decode)
        out = []
        for name in ("litbank", "gum"):
            out.append(f"{name} {_conll_scores(sets[name], preds[name], False)['conll_f1']:.2f}")
        gap = _gap_scores(sets["gap"], preds["gap"])
        overall = gap["overall"]
        out.append(f"GAP {overall['f']:.1f} (P {overall['p']:.1f} R {overall['r']:.1f})")
        out.append(f"bias {gap['bias']:.3f}")
        print(text or "(as shipped)", *out, flush=True)


if __name__ == "__main__":
    args, options, assignments = sys.argv[1:], {}, []
    while args[:1] in (["--model"], ["--top-lambda"], ["--scores"], ["--set"]):
        key, value, args = args[0], args[1], args[2:]
        if key == "--set":
            assignments.append(value)
        elif key == "--top-lambda":
            options["top_lambda"] = float(value)
        else:
            options["model" if key == "--model" else "scores_path"] = value
    main(args, assignments=assignments, **options)
