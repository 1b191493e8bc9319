"""Nouns whose referent is a person of either gender: "the physicist", "a neighbour"; and
nouns of a body of people: "the jury", "the committee".

Agreement reads the first as human (`constraints.HUMAN`), so that "it" does not take one of
them as its antecedent ("Pierre was a physicist ... won it"), while "he", "she" and "they" may.
The gendered ones ("aunt", "king") are `constraints.GENDERED_WORDS`. A body of people is "it"
or "they" and never "he", "she" or one person (`constraints.COLLECTIVE`): "the jury" is not the
"she" of the lawyer who spoke to it.

Written for this project, lemmas in lower case. Left out are the nouns that often name a
company, a country, a device or a thing as well ("client", "driver", "member", "leader",
"owner", "partner", "enemy", "coach", "chemist", "assistant", "pupil"), and the young
("child", "baby", "infant", "kid"), whom older texts call "it".
"""

# fmt: off
PERSON_NOUNS = frozenset((
    # kin and company, without a gender
    "parent", "cousin", "sibling", "grandparent", "grandchild", "relative", "spouse", "fiancé",
    "friend", "neighbour", "neighbor", "colleague", "companion", "comrade", "classmate",
    "roommate", "flatmate", "housemate", "playmate", "acquaintance", "lover", "sweetheart",
    "guest", "visitor", "stranger", "newcomer", "person", "individual", "adult", "teenager",
    "orphan", "twin", "ancestor", "descendant", "heir", "godparent", "godchild",
    # occupations
    "physicist", "scientist", "biologist", "physician", "doctor", "surgeon", "dentist",
    "nurse", "midwife", "pharmacist", "therapist", "psychologist", "psychiatrist",
    "veterinarian", "teacher", "tutor", "professor", "lecturer", "researcher", "scholar",
    "student", "historian", "philosopher", "economist", "mathematician", "astronomer",
    "engineer", "architect", "programmer", "lawyer", "attorney", "solicitor", "barrister",
    "judge", "detective", "journalist", "reporter", "editor", "writer", "author", "novelist",
    "poet", "playwright", "narrator", "painter", "artist", "sculptor", "photographer",
    "musician", "singer", "composer", "pianist", "violinist", "dancer", "farmer", "gardener",
    "shepherd", "hunter", "miner", "carpenter", "blacksmith", "baker", "butcher", "tailor",
    "merchant", "shopkeeper", "clerk", "secretary", "accountant", "banker", "cashier",
    "receptionist", "cook", "chef", "servant", "butler", "porter", "coachman", "footman",
    "soldier", "sailor", "officer", "sergeant", "lieutenant", "colonel", "commander",
    "captain", "admiral", "pilot", "firefighter", "plumber", "electrician", "mechanic",
    "janitor", "librarian", "politician", "senator", "governor", "mayor", "president",
    "diplomat", "ambassador", "minister", "chancellor", "bishop", "pastor", "rabbi", "imam",
    "preacher", "missionary", "athlete", "footballer", "employee", "worker", "labourer",
    "laborer", "volunteer", "manager", "director",
    # roles
    "traveller", "traveler", "tourist", "passenger", "pedestrian", "resident", "inhabitant",
    "citizen", "immigrant", "refugee", "prisoner", "captive", "slave", "thief", "robber",
    "murderer", "killer", "criminal", "victim", "witness", "suspect", "hostage", "patient",
    "hero", "villain", "protagonist", "beggar", "fool", "coward", "traitor", "spy",
    "candidate", "voter", "listener", "reader", "viewer",
))
# Left out: nouns that also name one person's side, a place or a thing ("party", "court",
# "house", "bench", "side").
COLLECTIVE_NOUNS = frozenset((
    "family", "household", "jury", "police", "committee", "council", "board", "panel",
    "commission", "government", "parliament", "congress", "senate", "cabinet", "ministry",
    "administration", "team", "crew", "squad", "army", "navy", "regiment", "battalion",
    "platoon", "crowd", "audience", "public", "staff", "faculty", "company", "firm",
    "corporation", "agency", "department", "union", "association", "club", "band", "orchestra",
    "choir", "gang", "tribe", "mob", "delegation",
))
# fmt: on
