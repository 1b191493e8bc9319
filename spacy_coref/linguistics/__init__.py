"""What is known of words and mentions, read off a doc: word lists and tags, names, quotes and
their speakers, clause roles, agreement classes and persons. The layer under the decoding and
the model's features: it imports `lang/` and the package's shared types, nothing above them
(docs/architecture.md)."""
