"""Names of companies and other organisations by their last word: "Norvell Energy", "Redstone
Motors", "Acme Holdings Inc.". Such a name is "it" or "they", never "he" or "she", and so are
the names inside it that the candidates hold ("Norvell"): the uncased encoder reads an unknown
capitalised word as a person's name, and the default had linked "she" of "Chief executive Ana
Ruiz ... said she expected a recovery" to the "Norvell" of "Shares of Norvell Energy fell".

A name counts where the entity recognizer calls it an organisation and its last word is one of
COMPANY_WORDS; without entities (the fast pipeline), where it lies in a run of capitalised
words that ends in one (`company_run_ends`). Left out are the words that end people's names
too ("Power", "Steel", "Banks", "Mills", "Church"), and words that name places ("Park",
"Hill").
"""
from typing import List

from spacy.tokens import Doc, Span, Token

# fmt: off
COMPANY_WORDS = frozenset((
    "Inc", "Inc.", "Corp", "Corp.", "Corporation", "Ltd", "Ltd.", "LLC", "plc", "PLC", "GmbH",
    "Co", "Co.", "Company", "Group", "Holdings", "Partners", "Associates", "Enterprises",
    "Ventures", "Industries", "Technologies", "Systems", "Labs", "Laboratories", "Software",
    "Solutions", "Networks", "Communications", "Telecom", "Media", "Entertainment", "Studios",
    "Records", "Publishing", "Airlines", "Airways", "Motors", "Automotive", "Energy",
    "Petroleum", "Oil", "Gas", "Mining", "Chemicals", "Pharmaceuticals", "Pharma", "Foods",
    "Logistics", "Insurance", "Bank", "Bancorp", "Capital", "Investments", "Securities",
))
# fmt: on


def in_company_name(span: Span) -> bool:
    """Whether the span is, or lies inside, an organisation's name that ends in one of
    COMPANY_WORDS."""
    root = span.root
    if root.ent_type_ != "ORG":
        return False
    doc = span.doc
    end = root.i + 1
    while end < len(doc) and doc[end].ent_iob_ == "I":
        end += 1
    return span.end <= end and doc[end - 1].text in COMPANY_WORDS


def company_run_ends(doc: Doc) -> List[bool]:
    """For each token, whether the run of capitalised words from it on ends in one of
    COMPANY_WORDS ("Norvell" and "Energy" of "Norvell Energy"), for docs without entities."""
    out = [False] * len(doc)
    ends_in_company = False
    for token in reversed(doc):
        if _capitalised(token):
            nxt = token.i + 1
            if nxt == len(doc) or not _capitalised(doc[nxt]):
                ends_in_company = token.text in COMPANY_WORDS
            out[token.i] = ends_in_company
    return out


def _capitalised(token: Token) -> bool:
    return token.is_title or (token.is_upper and token.is_alpha) or token.text in COMPANY_WORDS
