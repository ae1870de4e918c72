"""The website: the checked ledger resolved to what a page shows, rendered and written atomically.

resolve reads every number a page prints; views, charts, exports and markup shape it; themes
loads the templates (a ledger's own ones sandboxed); render builds the pages; write swaps the
finished site into place.
May import: core, measure, ledger, history.
"""
