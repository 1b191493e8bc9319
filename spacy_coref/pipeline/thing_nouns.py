"""Nouns whose referent is never a person or an animal: "the garden", "the meeting", "a phone".

Agreement reads a mention headed by one of them (singular, lower case) as neuter in decoding
(`constraints._agreement_class`): "he" and "she" never take it. The model's scores alone had
given "She" of "Priya's neighbour ... fell in his garden. She heard him" to "his garden", once
agreement had sent it away from "his", and "She" of "Tariq emailed Sophie after the meeting"
to "the meeting".

Written for this project, lemmas in lower case. Left out are the nouns that also name a person
or something texts call "he" or "she": a person's role or kind ("head", "hand", "chair",
"star", "model", "date", "match", "type", "source", "contact", "guide", "host", "second",
"subject", "character", "party", "lead"), a person's shape or trace ("body", "figure", "face",
"voice", "shadow", "form", "soul", "spirit", "ghost"), what older texts and poems call "she"
("ship", "boat", "vessel", "sea", "moon", "sun", "earth", "nature", "country", "nation",
"church", "city"), toys and machines that may be characters ("doll", "robot"), and animals.
"""

# fmt: off
THING_NOUNS = frozenset((
    # buildings, rooms and their parts
    "house", "home", "room", "kitchen", "bedroom", "bathroom", "garden", "yard", "courtyard",
    "building", "office", "apartment", "flat", "cottage", "cabin", "hut", "castle", "palace",
    "hall", "tower", "barn", "stable", "shed", "garage", "cellar", "attic", "basement",
    "door", "window", "wall", "floor", "ceiling", "roof", "stairs", "staircase", "gate",
    "fence", "corner", "corridor", "passage", "porch", "balcony", "chimney", "fireplace",
    # places
    "street", "road", "lane", "avenue", "path", "highway", "bridge", "square", "park",
    "station", "airport", "harbour", "harbor", "port", "hospital", "clinic", "school",
    "university", "college", "library", "museum", "theatre", "theater", "cinema", "shop",
    "store", "market", "supermarket", "restaurant", "cafe", "café", "hotel", "inn", "pub",
    "bar", "farm", "factory", "mill", "prison", "jail", "court", "courthouse",
    "village", "town", "suburb", "district", "region", "province", "border", "coast",
    "field", "forest", "wood", "river", "lake", "pond", "stream", "mountain", "hill",
    "valley", "island", "beach", "shore", "desert", "cave", "well", "meadow",
    # furniture and household things
    "bed", "table", "desk", "sofa", "couch", "bench", "shelf", "cupboard", "drawer",
    "lamp", "candle", "mirror", "carpet", "rug", "curtain", "blanket", "pillow", "sheet",
    "bath", "sink", "stove", "oven", "fridge", "refrigerator",
    # things carried and used
    "book", "letter", "note", "notebook", "diary", "envelope", "parcel", "package", "box",
    "bag", "suitcase", "basket", "bottle", "cup", "mug", "glass", "plate", "bowl", "dish",
    "pot", "pan", "knife", "fork", "spoon", "key", "lock", "ring", "necklace", "watch",
    "clock", "phone", "telephone", "computer", "laptop", "tablet", "screen", "camera",
    "radio", "television", "tv", "printer", "device", "machine", "engine", "tool",
    "hammer", "rope", "wire", "cable", "gun", "pistol", "rifle", "sword", "weapon", "bomb",
    "pen", "pencil", "umbrella", "wallet", "purse", "coin", "ticket", "card", "map",
    "picture", "painting", "photo", "photograph", "portrait", "statue", "poster", "sign",
    "flag", "gift", "present", "toy", "ball",
    # clothes
    "coat", "jacket", "dress", "skirt", "shirt", "blouse", "sweater", "scarf", "hat", "cap",
    "shoe", "boot", "glove", "uniform", "suit", "belt", "pocket", "sleeve", "collar",
    # vehicles people do not call "she"
    "car", "bus", "train", "truck", "lorry", "van", "taxi", "cab", "bicycle", "bike",
    "motorcycle", "tram", "carriage", "cart", "wagon", "plane", "airplane", "aircraft",
    "helicopter",
    # writing, records and messages
    "document", "file", "page", "chapter", "article", "essay", "report", "paper", "thesis",
    "contract", "agreement", "treaty", "law", "bill", "rule", "policy", "proposal", "plan",
    "budget", "list", "record", "message", "email", "e-mail", "text", "memo",
    "invitation", "application", "complaint", "request", "reply", "answer", "question",
    "speech", "statement", "announcement", "story", "novel", "poem", "song", "film", "movie",
    "play", "show", "programme", "program", "album", "website", "blog", "post", "video",
    "podcast", "interview", "newspaper", "magazine", "journal", "headline", "title", "word",
    "sentence", "name", "address", "number",
    # events
    "meeting", "conference", "summit", "session", "hearing", "trial", "election", "vote",
    "campaign", "war", "battle", "fight", "attack", "strike", "protest", "riot", "crisis",
    "accident", "crash", "fire", "flood", "storm", "earthquake", "explosion", "incident",
    "crime", "murder", "robbery", "theft", "wedding", "funeral", "ceremony", "celebration",
    "festival", "concert", "performance", "exhibition", "game", "race", "tournament",
    "season", "trip", "journey", "voyage", "visit", "tour", "holiday", "vacation", "walk",
    "ride", "flight", "dinner", "lunch", "breakfast", "meal", "lesson", "lecture",
    "course", "exam", "examination", "test", "interview", "operation", "surgery",
    "treatment", "conversation", "discussion", "debate", "argument", "quarrel", "call",
    "deal", "sale", "purchase", "payment", "loan", "investment", "merger", "launch",
    # work and undertakings
    "job", "task", "project", "business", "career", "work", "study", "research",
    "experiment", "survey", "analysis", "review", "investigation", "inquiry", "search",
    "process", "procedure", "method", "system", "strategy", "approach", "programme",
    "scheme", "policy", "reform", "change", "decision", "choice", "offer", "promise",
    "plan", "idea", "theory", "problem", "issue", "matter", "case", "situation", "result",
    "outcome", "effect", "cause", "reason", "purpose", "goal", "aim", "solution", "mistake",
    "error", "success", "failure", "victory", "defeat", "loss", "profit", "price", "cost",
    "fee", "salary", "wage", "income", "tax", "debt", "fund", "account", "share", "stock",
    "rate", "amount", "total", "percentage",
    # time
    "day", "night", "morning", "afternoon", "evening", "week", "weekend", "month", "year",
    "hour", "minute", "moment", "time", "century", "decade", "period", "era", "summer",
    "winter", "spring", "autumn", "fall", "birthday", "anniversary", "christmas",
    # the body, not the person
    "arm", "leg", "foot", "knee", "finger", "thumb", "shoulder", "neck", "eye", "ear",
    "nose", "mouth", "lip", "tooth", "tongue", "hair", "skin", "bone", "blood", "brain",
    "stomach", "chest", "wrist", "ankle", "elbow", "forehead", "cheek", "chin", "throat",
    # states of mind and life
    "life", "death", "birth", "marriage", "childhood", "health", "illness",
    "disease", "injury", "wound", "pain", "fever", "cancer", "fear", "anger", "joy",
    "happiness", "sadness", "grief", "love", "hatred", "hope", "despair", "pride", "shame",
    "memory", "dream", "thought", "feeling", "sense", "mind", "mood", "belief", "faith",
    "doubt", "knowledge", "truth", "lie", "secret", "news", "information", "advice",
    "opinion", "view", "attention", "interest", "experience", "skill", "ability", "habit",
    # nature and matter
    "tree", "flower", "plant", "grass", "leaf", "branch", "rose", "seed", "fruit", "apple",
    "rain", "snow", "wind", "ice", "sky", "cloud", "air", "water", "stone", "rock", "sand",
    "mud", "dust", "smoke", "gold", "silver", "iron", "steel", "wood", "oil", "gas",
    "weather", "light", "darkness", "heat", "cold",
    # food and drink
    "food", "bread", "cake", "soup", "meat", "cheese", "egg", "sugar", "salt", "rice",
    "tea", "coffee", "wine", "beer", "milk", "juice", "sandwich", "pie", "pizza", "salad",
    "recipe", "sauce",
))
# fmt: on
