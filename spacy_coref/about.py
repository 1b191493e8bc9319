__title__ = "spacy-s2e-coref"
__version__ = "0.1.0"
__summary__ = (
    "Coreference resolution native to spaCy v3: rule-based mentions, s2e scoring, "
    "Entity Equalization"
)
