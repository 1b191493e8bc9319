"""Names of companies and other organisations by their last word: "Norvell Energy", "Redstone
Motors", "Acme Holdings Inc.". Such a name is "it" or "they", never "he" or "she", and so are
the names inside it that the candidates hold ("Norvell"): the uncased encoder reads an unknown
capitalised word as a person's name, and the default had linked "she" of "Chief executive Ana
Ruiz ... said she expected a recovery" to the "Norvell" of "Shares of Norvell Energy fell".

A name counts where the entity recognizer calls it an organisation and its last word is one of
COMPANY_WORDS. Left out are the words that end people's names too ("Power", "Steel",
"Banks", "Mills", "Church"), and words that name places ("Park", "Hill").
"""
from spacy.tokens import Span

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
