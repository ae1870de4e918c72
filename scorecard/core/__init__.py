"""The ground floor: what every layer uses and nothing in scorecard is needed for.

Findings and the rule catalogue, the status vocabulary, safe paths inside the ledger root,
dates (clamped times, the format's YYYY[-MM[-DD]]), the worker pool, and every git call.
May import: the standard library only (and nothing of scorecard but its own modules).
"""
