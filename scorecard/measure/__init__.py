"""Numbers and what they mean: units, statistics, formulas, evidence files, and a value against its bar.

units, stats, expr, algebra and formula are pure arithmetic; evidence reads a JSON artifact
(jsonquery bounds a JSONPath query); selection, like and reading turn a result into a
Measurement; compare judges it against the bar and words it; numfmt prints it.
May import: core. Never the ledger's records: a result or a bar is taken as whatever has its fields.
"""
