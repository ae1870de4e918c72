"""The ledger as records: the schema, the YAML documents, loading, checking, and review stamps.

model is the one source of the records' schema; yamldoc parses a file with every value's
position; load finds the files; check (with rules) turns documents into records and findings;
records holds what check hands on; stamps and versions read `reviewed:` and committed versions;
cache keeps what one build parsed and rendered for the next.
May import: core, measure.
"""
